import { expect, test } from 'vitest'
import { alice } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'

/**
 * Red-team finding (fails until fixed): "a page the user has not connected acts for nobody" is
 * decided when a request arrives (rpc/index.ts), and revoking the page's permission closes only a
 * confirmation already on screen. A transaction still being prepared (its fee estimate on the way)
 * is shown after the page gave up its connection, and its Confirm sends it.
 */
const tick = () => new Promise((r) => setTimeout(r, 0))

test('a transaction prepared while the page revokes its permission is never shown: 4100 (or 4001), nothing sent', async () => {
  const t = testContext({ session: alice })
  await t.wallet.restore()
  expect(t.wallet.ui.get().connected).toBe(true)
  let estimated: (v: unknown) => void = () => {}
  const wallet = (t.ctx.client as unknown as { wallet: Record<string, unknown> }).wallet
  wallet.estimateGas = () => new Promise((resolve) => (estimated = resolve))

  const sending = t.call('eth_sendTransaction', [{ to: '0x000000000000000000000000000000000000b0b0', value: '0x1' }])
  await tick()
  expect(t.wallet.ui.get().confirmation).toBeNull()
  expect(await t.call('wallet_revokePermissions', [{ eth_accounts: {} }])).toEqual({ result: null })
  expect(t.wallet.ui.get().connected).toBe(false)

  estimated({ gasLimit: '21000', gasPrice: '2000000000', maxFeePerGas: '3000000000', maxPriorityFeePerGas: '1000000000' })
  await tick()
  await tick()
  // Today the confirmation opens for the page that is no longer connected, and Confirm sends it.
  expect(t.wallet.ui.get().confirmation).toBeNull()
  const answer = await Promise.race([sending, new Promise((r) => setTimeout(() => r('still pending'), 50))])
  expect(answer).toMatchObject({ code: expect.toBeOneOf([4100, 4001]) })
})

test('a request on screen while the page shows another modal is answered when the page revokes its permission: never shown again, nothing signed', async () => {
  // The revoke closes the confirmation only when the confirmation modal is the one open; the page
  // itself can open its profile over it first (bridge open), then bring the request back.
  const t = testContext({ session: alice })
  await t.wallet.restore()
  const signing = t.call('personal_sign', ['0x6869', alice.address])
  await tick()
  expect(t.wallet.ui.get().confirmation).not.toBeNull()
  t.wallet.open('profile')
  expect(await t.call('wallet_revokePermissions', [{ eth_accounts: {} }])).toEqual({ result: null })
  expect(t.wallet.ui.get().connected).toBe(false)
  // Today the request is still current: open() brings it back and Confirm signs for the revoked page.
  expect(t.wallet.ui.get().confirmation).toBeNull()
  const answer = await Promise.race([signing, new Promise((r) => setTimeout(() => r('still pending'), 50))])
  expect(answer).toMatchObject({ code: expect.toBeOneOf([4100, 4001]) })
  expect(t.calls).toEqual([])
})
