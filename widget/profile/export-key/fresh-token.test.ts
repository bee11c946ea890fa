import { describe, expect, test } from 'vitest'
import { resolveContext } from '../../../sdk/config.ts'
import { createTokenHolder } from '../../../sdk/config.ts'
import { walletTokenForWindow } from './fresh-token.ts'

// The token the frame hands to the secure window must outlive the window's one call: the window
// cannot refresh it (it gets no refresh token), so a token about to lapse is refreshed first.

const now = Date.UTC(2030, 0, 1)
const b64url = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
const jwt = (exp: number) => `${b64url({ alg: 'ES256' })}.${b64url({ sub: 'u1', exp: Math.floor(exp / 1000) })}.c2ln`

function context(walletToken: string | undefined, refreshToken: string | undefined) {
  const calls: unknown[] = []
  const tokens = createTokenHolder({ walletToken, refreshToken })
  const ctx = resolveContext({
    appId: 'demo',
    baseUrls: { wallet: 'http://wallet.test/api/v2' },
    tokens,
    fetch: async (url, init) => {
      calls.push({ url: String(url), body: JSON.parse(String(init?.body)) })
      return new Response(JSON.stringify({ status: 200, message: 'OK', data: { walletToken: jwt(now + 900_000), refreshToken: 'r2' } }), {
        headers: { 'content-type': 'application/json' },
      })
    },
  })
  return { ctx, calls, tokens }
}

describe('the wallet token handed to the secure window', () => {
  test('about to lapse: refreshed first (the holder keeps the new pair), and the new one is handed over', async () => {
    const { ctx, calls, tokens } = context(jwt(now + 30_000), 'r1')
    const handed = await walletTokenForWindow(ctx, now)
    expect(calls).toEqual([{ url: 'http://wallet.test/api/v2/wallet/refresh', body: { refreshToken: 'r1' } }])
    expect(handed).toBe(jwt(now + 900_000))
    expect(tokens.get()).toMatchObject({ walletToken: handed, refreshToken: 'r2' })
  })

  test('good for minutes yet, unreadable, or with no refresh token: handed as it is, nothing called', async () => {
    for (const [token, refresh] of [
      [jwt(now + 10 * 60_000), 'r1'],
      ['not-a-jwt', 'r1'],
      [jwt(now + 30_000), undefined],
    ] as const) {
      const { ctx, calls } = context(token, refresh)
      expect(await walletTokenForWindow(ctx, now)).toBe(token)
      expect(calls).toEqual([])
    }
  })

  test('no session: nothing to hand over', async () => {
    expect(await walletTokenForWindow(context(undefined, undefined).ctx, now)).toBeNull()
  })
})
