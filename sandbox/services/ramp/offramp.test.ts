import { createWalletClient, http, parseEther, publicActions, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { adminClient } from '../../infra/anvil/public-accounts.ts'
import { count, expect400, newAddress, signed, startRampSandbox } from './ramp-api-sandbox.ts'

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
})
