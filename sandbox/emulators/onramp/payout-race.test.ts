import { parseEther } from 'viem'
import { expect, test } from 'vitest'
import { adminClient } from '../../infra/anvil/public-accounts.ts'
import { newAddress, openPage, pay, signed, startRampSandbox } from '../../services/ramp/ramp-sandbox.fixture.ts'

// A ramp API order's payout that is slow, not lost: its link opened again once the payout deadline
// has passed (the order then reads 'failed') must not send a second payout beside the first.

const sandboxOf = startRampSandbox()

test('a retry while the first payout is still being sent pays nothing; the first completes the order', async () => {
  const receiver = newAddress()
  const order = (
    await signed('one', 'POST', '/onramp', { inputAmount: '30', inputCurrency: 'USD', outputCurrency: 'eth-local-1', receiverWalletAddress: receiver })
  ).body.data
  const admin = adminClient(sandboxOf().chains[0]!)
  // The chain takes the payout but does not mine it yet: the first payment waits for its receipt.
  await admin.setAutomine(false)
  let mined = false
  try {
    const first = pay(await openPage(order.paymentUrl))
    const deadline = Date.now() + 20_000
    while ((await admin.getTxpoolStatus()).pending === 0) {
      if (Date.now() > deadline) throw new Error('the first payout was never sent')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    // Its payout deadline passes while it waits (the sandbox busy, the chain slow).
    await sandboxOf().store.query("UPDATE ramp_orders SET paid_at = now() - interval '6 minutes' WHERE id = $1", [order.id])
    expect((await signed('one', 'GET', `/onramp/detail/${order.id}`)).body.data.status).toBe('failed')

    const retried = pay(await openPage(order.paymentUrl))
    // Time for the retry to look for the first payout (not mined, so not found) and decide.
    const early = await Promise.race([retried, new Promise<undefined>((resolve) => setTimeout(resolve, 3000))])
    await admin.setAutomine(true)
    await admin.mine({ blocks: 1 })
    mined = true
    const [firstAnswer, retryAnswer] = await Promise.all([first, retried])
    // One payout reached the receiver, not two.
    expect(await admin.getBalance({ address: receiver })).toBe(parseEther('0.0099'))
    expect(firstAnswer.status).toBe(200)
    expect(early?.status).toBe(409)
    expect(await retryAnswer.text()).toContain('The payout of this order is still being sent')
    expect((await signed('one', 'GET', `/onramp/detail/${order.id}`)).body.data).toMatchObject({
      status: 'completed',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    })
  } finally {
    if (!mined) await admin.setAutomine(true)
  }
})

test('two retries of a failed order posted at once: one pays, the other is refused', async () => {
  const receiver = newAddress()
  const order = (
    await signed('one', 'POST', '/onramp', { inputAmount: '30', inputCurrency: 'USD', outputCurrency: 'eth-local-1', receiverWalletAddress: receiver })
  ).body.data
  // A sandbox that stopped before sending the payout leaves the order paid without a hash; after the deadline it reads 'failed'.
  await sandboxOf().store.query("UPDATE ramp_orders SET paid_at = now() - interval '6 minutes' WHERE id = $1", [order.id])
  expect((await signed('one', 'GET', `/onramp/detail/${order.id}`)).body.data.status).toBe('failed')
  const admin = adminClient(sandboxOf().chains[0]!)

  const pages = [await openPage(order.paymentUrl), await openPage(order.paymentUrl)]
  const statuses = (await Promise.all(pages.map(pay))).map((answer) => answer.status).sort()
  expect(statuses).toEqual([200, 400])
  // Nothing had landed, so the winning retry paid, once.
  expect(await admin.getBalance({ address: receiver })).toBe(parseEther('0.0099'))
})
