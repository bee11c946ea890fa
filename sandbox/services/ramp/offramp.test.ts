import { createWalletClient, http, parseEther, publicActions, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { adminClient } from '../../infra/anvil/public-accounts.ts'
import { maxWaitingOfframpOrders } from './api-orders.ts'
import { count, expect400, newAddress, signed, startRampSandbox } from './ramp-sandbox.fixture.ts'

// Off-ramp orders against a real sandbox: a deposit address per order on the local chain, paid out
// once the full deposit is mined (on reads and on the watcher's timer), and the refused inputs.

const sandboxOf = startRampSandbox()

describe('off-ramp orders', () => {
  const depositor = async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const chain = sandboxOf().chains[0]!
    await adminClient(chain).setBalance({ address: account.address, value: parseEther('10') })
    const wallet = createWalletClient({
      account,
      transport: http(chain.rpcUrl),
      chain: {
        id: chain.chainId,
        name: 'local',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [chain.rpcUrl] } },
      },
    }).extend(publicActions)
    return async (to: Address, value: bigint) => wallet.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to, value }) })
  }

  test('a deposit address per order; paid out once the full deposit is mined; wrong deposits are not', async () => {
    const recipient = (await signed('one', 'POST', '/recipient', { bank: 'demo-bank', accountNumber: '9876543210', name: 'Carol' })).body.data
    const create = () =>
      signed('one', 'POST', '/offramp', { amount: '0.01', inputCurrency: 'eth-local-1', outputCurrency: 'USD', recipientId: recipient.id, chain: 31337 })
    const order = (await create()).body.data
    const other = (await create()).body.data
    expect(order).toMatchObject({
      type: 'offramp',
      status: 'pending',
      inputAmount: '0.01',
      coin: 'ETH',
      chainId: 31337,
      outputCurrency: 'USD',
      outputAmount: '29.70',
      recipientId: recipient.id,
      payout: null,
    })
    expect(order.depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(other.depositAddress).not.toBe(order.depositAddress)

    const send = await depositor()
    // Too little: still pending. To another address: nothing for this order.
    await send(order.depositAddress, parseEther('0.005'))
    await send(newAddress(), parseEther('0.01'))
    expect((await signed('one', 'GET', `/offramp/detail/${order.id}`)).body.data.status).toBe('pending')
    // The rest arrives: paid out to the recipient's (simulated) bank.
    const receipt = await send(order.depositAddress, parseEther('0.005'))
    const detail = (await signed('one', 'GET', `/offramp/detail/${order.id}`)).body.data
    expect(detail).toMatchObject({ status: 'paid_out', depositTxHash: receipt.transactionHash })
    expect(detail.payout).toMatchObject({ bank: 'demo-bank', accountNumber: '******3210', name: 'Carol', amount: '29.70', currency: 'USD' })
    expect((await signed('one', 'GET', `/offramp/detail/${other.id}`)).body.data.status).toBe('pending')

    expect((await signed('one', 'GET', '/offramp?status=paid_out')).body.data.docs.map((entry: { id: string }) => entry.id)).toEqual([order.id])
    expect((await signed('two', 'GET', `/offramp/detail/${order.id}`)).status).toBe(404)
    expect((await signed('two', 'GET', '/offramp')).body.data.docs).toEqual([])
    // Another app cannot use this app's recipient.
    expect(
      (await signed('two', 'POST', '/offramp', { amount: '0.01', inputCurrency: 'eth-local-1', outputCurrency: 'USD', recipientId: recipient.id })).status,
    ).toBe(404)
  })

  test('the timer pays out without a read', async () => {
    const recipient = (await signed('one', 'POST', '/recipient', { bank: 'DEMO', accountNumber: '11112222', name: 'Dan' })).body.data
    const order = (await signed('one', 'POST', '/offramp', { amount: '0.02', inputCurrency: 'eth-local-1', outputCurrency: 'EUR', recipientId: recipient.id }))
      .body.data
    await (await depositor())(order.depositAddress, parseEther('0.02'))
    await expect
      .poll(async () => (await sandboxOf().store.query<{ paid_at: unknown }>('SELECT paid_at FROM ramp_orders WHERE id = $1', [order.id])).rows[0]!.paid_at, {
        timeout: 8000,
        interval: 250,
      })
      .not.toBeNull()
  })

  test('bad orders are 400s and write nothing', async () => {
    const recipient = (await signed('one', 'POST', '/recipient', { bank: 'demo-bank', accountNumber: '12121212', name: 'Erin' })).body.data
    const good = { amount: '0.01', inputCurrency: 'eth-local-1', outputCurrency: 'USD', recipientId: recipient.id }
    const before = await count('ramp_orders')
    await expect400(signed('one', 'POST', '/offramp', { ...good, amount: '1e3' }), 'amount must be a number with at most 18 decimals')
    await expect400(signed('one', 'POST', '/offramp', { ...good, amount: '0' }), 'amount must be greater than 0')
    await expect400(signed('one', 'POST', '/offramp', { ...good, amount: '0.0000001' }), 'Minimum amount is 1 USD')
    await expect400(signed('one', 'POST', '/offramp', { ...good, amount: '100' }), 'Maximum amount is 10,000 USD')
    await expect400(signed('one', 'POST', '/offramp', { ...good, inputCurrency: 'btc-local-1' }), 'Unknown crypto: btc-local-1')
    await expect400(signed('one', 'POST', '/offramp', { ...good, chain: 'local-9' }), /is not the chain of eth-local-1/)
    await expect400(signed('one', 'POST', '/offramp', { ...good, outputCurrency: 'JPY' }), 'Unknown currency: JPY')
    await expect400(signed('one', 'POST', '/offramp', { ...good, recipientId: undefined }), 'recipientId is required')
    expect((await signed('one', 'POST', '/offramp', { ...good, recipientId: 'rcp_nope' })).status).toBe(404)
    await expect400(
      signed('one', 'GET', '/offramp/quote?amount=abc&inputCurrency=eth-local-1&outputCurrency=USD'),
      'amount must be a number with at most 18 decimals',
    )
    expect(await count('ramp_orders')).toBe(before)
  })

  test('the deposit hash is the transfer that completed the deposit; a later transfer does not change it', async () => {
    const recipient = (await signed('one', 'POST', '/recipient', { bank: 'demo-bank', accountNumber: '31313131', name: 'Faye' })).body.data
    const order = (await signed('one', 'POST', '/offramp', { amount: '0.01', inputCurrency: 'eth-local-1', outputCurrency: 'USD', recipientId: recipient.id }))
      .body.data
    const send = await depositor()
    await send(order.depositAddress, parseEther('0.004'))
    const completing = await send(order.depositAddress, parseEther('0.006'))
    // Dust after the full amount, before anyone looked: not the deposit.
    await send(order.depositAddress, parseEther('0.0001'))
    const detail = (await signed('one', 'GET', `/offramp/detail/${order.id}`)).body.data
    expect(detail).toMatchObject({ status: 'paid_out', depositTxHash: completing.transactionHash })
    await send(order.depositAddress, parseEther('0.02'))
    expect((await signed('one', 'GET', `/offramp/detail/${order.id}`)).body.data.depositTxHash).toBe(completing.transactionHash)
  })

  test("the payout goes to the recipient's details as they were when the order was made", async () => {
    const recipient = (await signed('one', 'POST', '/recipient', { bank: 'demo-bank', accountNumber: '44445555', name: 'Gus' })).body.data
    const order = (await signed('one', 'POST', '/offramp', { amount: '0.01', inputCurrency: 'eth-local-1', outputCurrency: 'USD', recipientId: recipient.id }))
      .body.data
    // Edited, then deleted, after the order: the order still pays the details it was made with.
    expect((await signed('one', 'PATCH', `/recipient/${recipient.id}`, { accountNumber: '99990000', name: 'Mallory' })).status).toBe(200)
    await (await depositor())(order.depositAddress, parseEther('0.01'))
    const paid = (await signed('one', 'GET', `/offramp/detail/${order.id}`)).body.data
    expect(paid.payout).toMatchObject({ bank: 'demo-bank', accountNumber: '****5555', name: 'Gus', amount: '29.70', currency: 'USD' })
    expect((await signed('one', 'DELETE', `/recipient/${recipient.id}`)).status).toBe(200)
    const listed = (await signed('one', 'GET', '/offramp?status=paid_out&limit=100')).body.data.docs.find((entry: { id: string }) => entry.id === order.id)
    expect(listed.payout).toMatchObject({ accountNumber: '****5555', name: 'Gus' })
  })

  test('a deposit that completes after the order expired is still credited (by the timer, and on a read), never left unseen', async () => {
    const recipient = (await signed('one', 'POST', '/recipient', { bank: 'demo-bank', accountNumber: '77778888', name: 'Hal' })).body.data
    const create = async () =>
      (await signed('one', 'POST', '/offramp', { amount: '0.01', inputCurrency: 'eth-local-1', outputCurrency: 'USD', recipientId: recipient.id })).body.data
    const [byTimer, byRead] = [await create(), await create()]
    const expire = (id: string) => sandboxOf().store.query("UPDATE ramp_orders SET expires_at = now() - interval '1 minute' WHERE id = $1", [id])
    await expire(byTimer.id)
    // Long expired: no timer watches it any more, but reading it still looks.
    await sandboxOf().store.query("UPDATE ramp_orders SET expires_at = now() - interval '2 days' WHERE id = $1", [byRead.id])
    expect((await signed('one', 'GET', `/offramp/detail/${byRead.id}`)).body.data.status).toBe('expired')
    const send = await depositor()
    await send(byTimer.depositAddress, parseEther('0.01'))
    await send(byRead.depositAddress, parseEther('0.01'))
    const paidAt = async (id: string) =>
      (await sandboxOf().store.query<{ paid_at: unknown }>('SELECT paid_at FROM ramp_orders WHERE id = $1', [id])).rows[0]!.paid_at
    await expect.poll(() => paidAt(byTimer.id), { timeout: 8000, interval: 250 }).not.toBeNull()
    expect(await paidAt(byRead.id)).toBeNull()
    expect((await signed('one', 'GET', `/offramp/detail/${byRead.id}`)).body.data).toMatchObject({ status: 'paid_out', payout: { name: 'Hal' } })
  })

  test(`at most ${maxWaitingOfframpOrders} orders of an app wait for a deposit at once: the next is a 429 and writes nothing`, async () => {
    const recipient = (await signed('two', 'POST', '/recipient', { bank: 'demo-bank', accountNumber: '12340000', name: 'Ida' })).body.data
    const order = { amount: '0.01', inputCurrency: 'eth-local-1', outputCurrency: 'USD', recipientId: recipient.id }
    const made: string[] = []
    for (let i = 0; i < maxWaitingOfframpOrders; i++) {
      const created = await signed('two', 'POST', '/offramp', order)
      expect(created.status).toBe(200)
      made.push(created.body.data.id)
    }
    const before = await count('ramp_orders')
    const refused = await signed('two', 'POST', '/offramp', order)
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({
      status: 429,
      message: `At most ${maxWaitingOfframpOrders} off-ramp orders may wait for their deposit at once: fund one, or wait until one expires`,
      data: null,
    })
    expect(await count('ramp_orders')).toBe(before)
    // Another app is not held back; once one of these is funded, there is room again.
    const otherRecipient = (await signed('one', 'POST', '/recipient', { bank: 'demo-bank', accountNumber: '12340001', name: 'Jo' })).body.data
    expect((await signed('one', 'POST', '/offramp', { ...order, recipientId: otherRecipient.id })).status).toBe(200)
    const funded = (await signed('two', 'GET', `/offramp/detail/${made[0]}`)).body.data
    await (await depositor())(funded.depositAddress, parseEther('0.01'))
    expect((await signed('two', 'GET', `/offramp/detail/${made[0]}`)).body.data.status).toBe('paid_out')
    expect((await signed('two', 'POST', '/offramp', order)).status).toBe(200)
  })
})
