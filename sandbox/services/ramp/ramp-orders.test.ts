import { parseEther, walletActions } from 'viem'
import { describe, expect, test } from 'vitest'
import { adminClient } from '../../infra/anvil/public-accounts.ts'
import { count, expect400, newAddress, nextTimestamp, openPage, pay, signed, startRampSandbox } from './ramp-sandbox.fixture.ts'

// The ramp API's recipients and on-ramp orders as a back end calls them (RSA-signed ramp client),
// against a real sandbox: orders completed by the hosted page, and the abuse cases (other apps'
// ids, replays, the publishable key, bad input).

const sandboxOf = startRampSandbox()

describe('recipients', () => {
  test('create, list, update and delete; validated; per app', async () => {
    const created = await signed('one', 'POST', '/recipient', { bank: 'demo-bank', accountNumber: '1234567890', name: 'Ada Lovelace' })
    expect(created.status).toBe(200)
    expect(created.body.data).toMatchObject({ bank: 'demo-bank', accountNumber: '1234567890', name: 'Ada Lovelace' })
    const id = created.body.data.id as string
    expect(id).toMatch(/^rcp_[0-9a-f]{24}$/)

    const before = await count('ramp_recipients')
    await expect400(
      signed('one', 'POST', '/recipient', { bank: 'other-bank', accountNumber: '12', name: '' }),
      /bank must be one of demo-bank.*accountNumber must be 6 to 20 digits.*name must be/,
    )
    await expect400(signed('one', 'POST', '/recipient', { bank: 'DEMO', accountNumber: 1234567890, name: 'Ada' }), 'accountNumber must be 6 to 20 digits')
    await expect400(signed('one', 'POST', '/recipient', { bank: 'DEMO', accountNumber: '1234567', name: 'Ada', admin: true }), 'Unknown field: admin')
    await expect400(signed('one', 'POST', '/recipient', [1]), 'The body must be a JSON object')
    await expect400(signed('one', 'PATCH', `/recipient/${id}`, {}), 'Nothing to update: give bank, accountNumber or name')
    await expect400(signed('one', 'PATCH', `/recipient/${id}`, { name: '<script>' }), /^name must be/)
    expect(await count('ramp_recipients')).toBe(before)

    const updated = await signed('one', 'PATCH', `/recipient/${id}`, { name: ' Ada King ' })
    expect(updated.body.data).toMatchObject({ id, name: 'Ada King', accountNumber: '1234567890' })

    // Another app sees none of it and can change none of it.
    expect((await signed('two', 'GET', '/recipient')).body.data.docs).toEqual([])
    expect((await signed('two', 'PATCH', `/recipient/${id}`, { name: 'Mallory' })).status).toBe(404)
    expect((await signed('two', 'DELETE', `/recipient/${id}`)).status).toBe(404)

    const listed = await signed('one', 'GET', '/recipient?page=1&limit=5')
    expect(listed.body.data).toMatchObject({ page: 1, limit: 5, totalDocs: 1, totalPages: 1 })
    expect(listed.body.data.docs[0]).toMatchObject({ id, name: 'Ada King' })
    await expect400(signed('one', 'GET', '/recipient?limit=1000'), 'limit must be a whole number from 1 to 100')

    expect((await signed('one', 'DELETE', `/recipient/${id}`)).body.data).toEqual({ id, deleted: true })
    expect((await signed('one', 'DELETE', `/recipient/${id}`)).status).toBe(404)
    expect((await signed('one', 'GET', '/recipient')).body.data.docs).toEqual([])
    // A deleted recipient takes no new orders.
    const refused = await signed('one', 'POST', '/offramp', { amount: '0.01', inputCurrency: 'eth-local-1', outputCurrency: 'USD', recipientId: id })
    expect(refused.status).toBe(404)
    expect(refused.body.message).toBe('Recipient not found')
  })
})

describe('credentials', () => {
  test('the publishable key cannot create or read orders; a replayed signed request is refused', async () => {
    const publishable = { 'x-client-secret': 'ramp-one-publishable', 'content-type': 'application/json' }
    for (const [method, path] of [
      ['POST', '/onramp'],
      ['GET', '/onramp'],
      ['POST', '/offramp'],
      ['GET', '/offramp/detail/x'],
      ['POST', '/recipient'],
      ['GET', '/recipient'],
    ] as const) {
      const response = await fetch(`${sandboxOf().url}/v1${path}`, { method, headers: publishable, ...(method === 'POST' ? { body: '{}' } : {}) })
      expect(response.status).toBe(403)
    }
    // The off-ramp quote is a read the publishable key may make.
    const quote = await fetch(`${sandboxOf().url}/v1/offramp/quote?amount=0.01&inputCurrency=eth-local-1&outputCurrency=USD`, { headers: publishable })
    expect((await quote.json()).data).toEqual({
      rate_amount: 3000,
      currency: 'USD',
      coin: 'ETH',
      amount_in_crypto: '0.01',
      amount_in_fiat: '30.00',
      total_fee_amount: '0.30',
      total_received_amount: '29.70',
    })

    const before = await count('ramp_recipients')
    const first = await signed('one', 'POST', '/recipient', { bank: 'demo-bank', accountNumber: '55555555', name: 'Bob' })
    expect(first.status).toBe(200)
    const replay = await signed('one', 'POST', '/recipient', { bank: 'demo-bank', accountNumber: '55555555', name: 'Bob' }, first.headers)
    expect(replay.status).toBe(401)
    expect(replay.body.message).toBe('Replayed request signature')
    // A signature over another body does not carry over.
    const swapped = await signed(
      'one',
      'POST',
      '/recipient',
      { bank: 'demo-bank', accountNumber: '66666666', name: 'Eve' },
      { ...first.headers, 'x-timestamp': nextTimestamp() },
    )
    expect(swapped.status).toBe(401)
    expect(await count('ramp_recipients')).toBe(before + 1)
  })
})

describe('on-ramp orders', () => {
  test('created by the API, paid on the hosted page, listed and shown per app', async () => {
    const receiver = newAddress()
    const created = await signed('one', 'POST', '/onramp', {
      inputAmount: '20',
      inputCurrency: 'USD',
      outputCurrency: 'eth-local-1',
      receiverWalletAddress: receiver,
      chain: 'local-1',
    })
    expect(created.status).toBe(200)
    const order = created.body.data
    expect(order).toMatchObject({
      type: 'onramp',
      status: 'pending',
      inputAmount: '20',
      inputCurrency: 'USD',
      outputCurrency: 'eth-local-1',
      coin: 'ETH',
      chainId: 31337,
      receiverWalletAddress: receiver,
      outputAmount: '0.0066',
      txHash: null,
    })
    expect(order.id).toMatch(/^onr_/)
    expect(order.paymentUrl).toBe(
      `${sandboxOf().url}/onramp?clientSecret=ramp-one-publishable&receiverWalletAddress=${receiver}&inputAmount=20&inputCurrency=USD&outputCurrency=eth-local-1&orderId=${order.id}`,
    )

    // Another app's id is not found; the id is no key to anything.
    expect((await signed('two', 'GET', `/onramp/detail/${order.id}`)).status).toBe(404)
    expect((await signed('two', 'GET', '/onramp')).body.data.docs).toEqual([])

    // The hosted page completes it; two pages opened for it pay it once.
    const [first, second] = [await openPage(order.paymentUrl), await openPage(order.paymentUrl)]
    expect((await pay(first)).status).toBe(200)
    const refused = await pay(second)
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('Order already used')
    const detail = (await signed('one', 'GET', `/onramp/detail/${order.id}`)).body.data
    expect(detail.status).toBe('completed')
    expect(detail.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await adminClient(sandboxOf().chains[0]!).getBalance({ address: receiver })).toBe(parseEther('0.0066'))

    const completed = await signed('one', 'GET', '/onramp?status=completed')
    expect(completed.body.data.docs.map((entry: { id: string }) => entry.id)).toEqual([order.id])
    expect((await signed('one', 'GET', '/onramp?status=pending')).body.data.docs).toEqual([])
    await expect400(signed('one', 'GET', '/onramp?status=done'), 'status must be one of pending, paid, completed, expired, failed')
  })

  test('a page completes the very order its link names: not an older one paying out the same, not one whose link was altered', async () => {
    const receiver = newAddress()
    const create = async (inputAmount: string) =>
      (await signed('one', 'POST', '/onramp', { inputAmount, inputCurrency: 'IDR', outputCurrency: 'eth-local-1', receiverWalletAddress: receiver })).body.data
    // Two orders paying out the same ETH (the payout is rounded): the second one's page pays the second one.
    const older = await create('10000.01')
    const newer = await create('10000')
    expect(older.outputAmount).toBe(newer.outputAmount)
    // A link whose order id names the older order but whose amount is the newer one's completes nothing.
    const altered = newer.paymentUrl.replace(newer.id, older.id)
    expect((await pay(await openPage(altered))).status).toBe(200)
    expect((await signed('one', 'GET', `/onramp/detail/${older.id}`)).body.data.status).toBe('pending')
    expect((await pay(await openPage(newer.paymentUrl))).status).toBe(200)
    expect((await signed('one', 'GET', `/onramp/detail/${newer.id}`)).body.data.status).toBe('completed')
    expect((await signed('one', 'GET', `/onramp/detail/${older.id}`)).body.data.status).toBe('pending')
  })

  test("ids that are not this service's, and NUL characters, are 404 or 400, never a server error", async () => {
    expect((await signed('one', 'GET', '/onramp/detail/onr_zz')).status).toBe(404)
    // A control character anywhere in a URL is a 400 before any route (http/exchange.ts refuseControlText).
    for (const [method, path] of [
      ['GET', '/onramp/detail/%00'],
      ['GET', '/offramp/detail/a%00b'],
      ['DELETE', '/recipient/%00'],
      ['PATCH', '/recipient/%00'],
    ] as const) {
      const answer = await signed('one', method, path, method === 'PATCH' ? { name: 'Ann' } : undefined)
      expect(answer.status).toBe(400)
    }
    const offramp = await signed('one', 'POST', '/offramp', { amount: '0.01', inputCurrency: 'eth-local-1', outputCurrency: 'USD', recipientId: 'x\u0000y' })
    expect(offramp.status).toBe(400)
  })

  test('bad orders are 400s and write nothing', async () => {
    const good = { inputAmount: '20', inputCurrency: 'USD', outputCurrency: 'eth-local-1', receiverWalletAddress: newAddress() }
    const before = await count('ramp_orders')
    await expect400(signed('one', 'POST', '/onramp', { ...good, inputAmount: '-1' }), 'amount must be a number with at most 2 decimals')
    await expect400(signed('one', 'POST', '/onramp', { ...good, inputAmount: '0' }), 'amount must be greater than 0')
    await expect400(signed('one', 'POST', '/onramp', { ...good, inputAmount: '20000' }), 'Maximum amount is 10,000 USD')
    await expect400(signed('one', 'POST', '/onramp', { ...good, inputCurrency: 'GBP' }), 'Unknown currency: GBP')
    await expect400(signed('one', 'POST', '/onramp', { ...good, outputCurrency: 'eth-mainnet' }), 'Unknown crypto: eth-mainnet')
    await expect400(signed('one', 'POST', '/onramp', { ...good, chain: 'local-2' }), /is not the chain of eth-local-1/)
    await expect400(signed('one', 'POST', '/onramp', { ...good, receiverWalletAddress: '0x1234' }), /receiverWalletAddress must be an EVM address/)
    await expect400(signed('one', 'POST', '/onramp', { ...good, receiverWalletAddress: undefined }), 'receiverWalletAddress is required')
    expect(await count('ramp_orders')).toBe(before)
  })

  test('a failed payout marks the order failed with its reason; paying its link again completes it, once', async () => {
    const receiver = newAddress()
    const order = (
      await signed('one', 'POST', '/onramp', { inputAmount: '30', inputCurrency: 'USD', outputCurrency: 'eth-local-1', receiverWalletAddress: receiver })
    ).body.data
    const admin = adminClient(sandboxOf().chains[0]!)
    const faucet = sandboxOf().faucetAddress
    const funds = await admin.getBalance({ address: faucet })
    // The faucet below its reserve: the payout is refused and nothing is sent.
    await admin.setBalance({ address: faucet, value: parseEther('1') })
    try {
      expect((await pay(await openPage(order.paymentUrl))).status).toBe(503)
    } finally {
      await admin.setBalance({ address: faucet, value: funds })
    }
    const failed = (await signed('one', 'GET', `/onramp/detail/${order.id}`)).body.data
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'The sandbox faucet is low on funds on chain 31337', txHash: null })
    expect((await signed('one', 'GET', '/onramp?status=failed')).body.data.docs.map((entry: { id: string }) => entry.id)).toContain(order.id)

    // Recoverable: the same link pays it again, and then it is done.
    const [retry, late] = [await openPage(order.paymentUrl), await openPage(order.paymentUrl)]
    expect((await pay(retry)).status).toBe(200)
    const completed = (await signed('one', 'GET', `/onramp/detail/${order.id}`)).body.data
    expect(completed).toMatchObject({ status: 'completed', failureReason: null, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    expect((await pay(late)).status).toBe(400)
    expect(await admin.getBalance({ address: receiver })).toBe(parseEther('0.0099'))
  })

  test('an order left paid without a payout (the sandbox stopped mid-payout) is failed after 5 minutes; a retry finds a payout that did land and pays nothing twice', async () => {
    const receiver = newAddress()
    const order = (
      await signed('one', 'POST', '/onramp', { inputAmount: '30', inputCurrency: 'USD', outputCurrency: 'eth-local-1', receiverWalletAddress: receiver })
    ).body.data
    // What a stop between the payout and its record leaves: the coins sent, the order paid 6 minutes ago, no hash.
    const admin = adminClient(sandboxOf().chains[0]!).extend(walletActions)
    const faucet = sandboxOf().faucetAddress
    await admin.impersonateAccount({ address: faucet })
    const landed = await admin.sendTransaction({ account: faucet, chain: null, to: receiver, value: parseEther('0.0099') })
    await admin.stopImpersonatingAccount({ address: faucet })
    await admin.waitForTransactionReceipt({ hash: landed })
    await sandboxOf().store.query("UPDATE ramp_orders SET paid_at = now() - interval '6 minutes' WHERE id = $1", [order.id])
    expect((await signed('one', 'GET', `/onramp/detail/${order.id}`)).body.data.status).toBe('failed')

    expect((await pay(await openPage(order.paymentUrl))).status).toBe(200)
    expect((await signed('one', 'GET', `/onramp/detail/${order.id}`)).body.data).toMatchObject({ status: 'completed', txHash: landed })
    expect(await admin.getBalance({ address: receiver })).toBe(parseEther('0.0099'))
  })
})
