import { expect, test } from 'vitest'
import { resolveContext } from '../sdk/config.ts'
import { identityToken } from './identity-token.ts'
import { sessionLifetimeMs } from './session.ts'
import { testWallet } from './wallet.fixture.ts'

// The page asked while it was connected, and the provider takes a moment to mint. A token names the
// user, so it reaches the page only if that page is still connected to the same session when the
// answer comes: not after the user disconnected the site, nor after the session ended or changed
// hands in another tab meanwhile.

const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln'
const expiresAt = '2026-11-26T20:10:00.000Z'

function setup(meanwhile: (t: ReturnType<typeof testWallet>) => Promise<void> | void) {
  const t = testWallet()
  let minted = 0
  const context = resolveContext({
    env: 'sandbox',
    tokens: t.owner.tokens,
    fetch: async () => {
      minted++
      await meanwhile(t)
      return new Response(JSON.stringify({ status: 200, message: 'OK', data: { identityToken: jwt, expiresAt } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })
    },
  })
  const ask = () =>
    identityToken({ wallet: t.wallet, client: { context } }, undefined).then(
      (value) => ({ value }),
      (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
    )
  return { ...t, ask, minted: () => minted }
}

test('the user disconnects this site while the token is minted: the page gets 4100, not the token', async () => {
  const s = setup((t) => t.wallet.setSite(false))
  await s.logIn()
  expect(await s.ask()).toEqual({ code: 4100, message: expect.stringContaining('connect') })
  expect(s.minted()).toBe(1)
})

test('the session ends in another tab while the token is minted: 4100', async () => {
  const s = setup((t) => t.remote(null))
  await s.logIn()
  expect(await s.ask()).toMatchObject({ code: 4100 })
})

test("another user signs in in another tab (and connects this site there) while the token is minted: 4100, not the first user's token", async () => {
  const bob = {
    token: 'bob-token',
    refreshToken: 'bob-refresh',
    address: '0x0000000000000000000000000000000000000B0b' as const,
    chainId: 31337,
    appId: 'demo',
    env: 'sandbox' as const,
    expiresAt: Date.now() + sessionLifetimeMs,
    sites: ['http://127.0.0.1:5173'],
  }
  const s = setup((t) => t.remote(bob))
  await s.logIn()
  expect(await s.ask()).toMatchObject({ code: 4100 })
  expect(s.wallet.ui.get()).toMatchObject({ connected: true, session: { address: bob.address } })
})

test('held: with nothing changed meanwhile the token is handed over', async () => {
  const s = setup(() => {})
  await s.logIn()
  expect(await s.ask()).toEqual({ value: { identityToken: jwt, expiresAt } })
})
