// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest'
import { checkCall, widgetChecks } from '../bridge/serve.ts'
import { startKit } from './kit.fixture.ts'

/**
 * kit.getIdentityToken(): one bridge call, `identityToken` with the page's nonce (or none), answered
 * by the frame. Here the fixture's frame checks the call with the frame's real table
 * (bridge/serve.ts) and answers as the frame does for a signed-in page, or 4100 when `signedIn`
 * is off.
 */
let stop = () => {}
afterEach(() => stop())

const token = { identityToken: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln', expiresAt: '2026-11-26T20:10:00.000Z' }

async function kitWithFrame() {
  const setup = await startKit()
  stop = setup.stop
  const state = { signedIn: true }
  const asked = () => setup.frame.calls.filter((c) => (c.methodPath as string[])[0] === 'identityToken').map((c) => c.args)
  setup.frame.reply = (name) => {
    if (name !== 'identityToken') return undefined
    const args = setup.frame.calls.at(-1)!.args as unknown[]
    const refused = checkCall(widgetChecks, name, args)
    if (refused) return { value: refused }
    return {
      value: state.signedIn ? { result: token } : { error: { code: 4100, message: 'Nobody is signed in on this page: connect first (eth_requestAccounts)' } },
    }
  }
  return { ...setup, state, asked }
}

test('a signed-in page gets the token and its expiry; the nonce, when given, goes with the call', async () => {
  const { kit, asked } = await kitWithFrame()
  expect(await kit.getIdentityToken()).toEqual(token)
  expect(await kit.getIdentityToken({ nonce: 'server-nonce-1' })).toEqual(token)
  expect(await kit.getIdentityToken({})).toEqual(token)
  expect(asked()).toEqual([[undefined], ['server-nonce-1'], [undefined]])
})

test('signed out (or this page not connected): rejects with 4100, an EIP-1193 ProviderRpcError', async () => {
  const { kit, state } = await kitWithFrame()
  state.signedIn = false
  const error = await kit.getIdentityToken().catch((e: unknown) => e)
  expect(error).toBeInstanceOf(Error)
  expect(error).toMatchObject({ name: 'ProviderRpcError', code: 4100, message: expect.stringContaining('connect first') })
})

test('bad nonces are refused with -32602: what is not a string of at most 128 characters never leaves the page, the rest is refused by the frame before anything runs', async () => {
  const { kit, asked } = await kitWithFrame()
  const notSent = [() => 'abcdefghij', Symbol('n'), 12345678, ['abcdefghij'], { toString: () => 'abcdefghij' }, null, 'x'.repeat(129), 'x'.repeat(1_000_000)]
  for (const nonce of notSent)
    await expect(kit.getIdentityToken({ nonce: nonce as never }), typeof nonce).rejects.toMatchObject({ code: -32602, message: 'Invalid nonce' })
  expect(asked()).toEqual([])
  // Strings the page cannot judge alone: the frame's check (the provider's rule) refuses them on arrival.
  const frameRefused = ['short', 'with space', 'ünïcödé-nonce', 'line\nbreak!', 'bidi\u202enonce']
  for (const nonce of frameRefused)
    await expect(kit.getIdentityToken({ nonce }), nonce).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('8 to 128 visible ASCII') })
  expect(asked()).toEqual(frameRefused.map((nonce) => [nonce]))
})

test('a destroyed kit answers 4900 and asks nothing', async () => {
  const { kit, asked } = await kitWithFrame()
  kit.destroy()
  await expect(kit.getIdentityToken()).rejects.toMatchObject({ code: 4900 })
  expect(asked()).toEqual([])
})
