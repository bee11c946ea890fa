import { expect, test } from 'vitest'
import { resolveContext } from '../sdk/config.ts'
import { identityToken } from './identity-token.ts'
import { alice, setUi, testWallet } from './wallet.fixture.ts'

const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln'
const expiresAt = '2026-11-26T20:10:00.000Z'

/** The frame's call with a wallet service that records each request and answers `reply` (status, envelope data). */
function setup(reply: { status: number; data: unknown; message?: string } = { status: 200, data: { identityToken: jwt, expiresAt } }) {
  const t = testWallet()
  const asked: { url: string; auth: string | null; body: unknown }[] = []
  const context = resolveContext({
    env: 'sandbox',
    tokens: t.owner.tokens,
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers)
      asked.push({ url: String(input), auth: headers.get('authorization'), body: JSON.parse(String(init?.body)) })
      return new Response(JSON.stringify({ status: reply.status, message: reply.message ?? 'OK', data: reply.data }), {
        status: reply.status,
        headers: { 'content-type': 'application/json' },
      })
    },
  })
  const ask = (nonce?: string) =>
    identityToken({ wallet: t.wallet, client: { context } }, nonce).then(
      (value) => ({ value }),
      (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
    )
  return { ...t, asked, ask }
}

test('nobody signed in: 4100, and the service is not asked', async () => {
  const s = setup()
  expect(await s.ask()).toMatchObject({ code: 4100 })
  expect(s.asked).toEqual([])
})

test('signed in, but this page was never connected (another site of the app): 4100, the service is not asked', async () => {
  const s = setup()
  await s.logIn()
  await s.wallet.setSite(false)
  expect(s.wallet.ui.get().session).not.toBeNull()
  expect(await s.ask('page-nonce-1')).toMatchObject({ code: 4100 })
  expect(s.asked).toEqual([])
})

test('a connected page gets the token and its expiry only; the frame asks with its own session and the page nonce', async () => {
  // The service's answer carries more than the page may see: only the two fields cross.
  const s = setup({ status: 200, data: { identityToken: jwt, expiresAt, walletToken: 'leak', refreshToken: 'leak' } })
  await s.logIn()
  expect(await s.ask('page-nonce-1')).toEqual({ value: { identityToken: jwt, expiresAt } })
  expect(s.asked).toEqual([{ url: 'http://localhost:8787/api/v2/wallet/identity-token', auth: `Bearer ${alice.token}`, body: { nonce: 'page-nonce-1' } }])
  expect(await s.ask()).toEqual({ value: { identityToken: jwt, expiresAt } })
  expect(s.asked[1]?.body).toEqual({})
})

test('a browser wallet or a WalletConnect wallet answering for the page: 4200, the service is not asked', async () => {
  const s = setup()
  await s.logIn()
  setUi(s.wallet, { external: { walletId: 'com.w', address: alice.address } })
  expect(await s.ask()).toMatchObject({ code: 4200 })
  setUi(s.wallet, { external: null, session: { address: alice.address, walletConnect: { peer: 'Phone' } } })
  expect(await s.ask()).toMatchObject({ code: 4200 })
  expect(s.asked).toEqual([])
})

test('the service refusing: 429 is -32005, a session it no longer takes is 4100, anything else -32603', async () => {
  const limited = setup({ status: 429, data: null, message: 'Too many requests' })
  await limited.logIn()
  expect(await limited.ask()).toMatchObject({ code: -32005 })
  const revoked = setup({ status: 401, data: null, message: 'Session revoked' })
  await revoked.logIn()
  // The sdk tries its refresh token once (refused too, which ends the session here).
  expect(await revoked.ask()).toMatchObject({ code: 4100 })
  expect(revoked.asked.map((a) => a.url.replace('http://localhost:8787/api/v2', ''))).toEqual(['/wallet/identity-token', '/wallet/refresh'])
  const broken = setup({ status: 500, data: null, message: 'An error occurred' })
  await broken.logIn()
  expect(await broken.ask()).toMatchObject({ code: -32603 })
})

test('an answer that is not a compact JWT with an expiry is not passed on (-32603)', async () => {
  for (const data of [{ identityToken: 'not a jwt', expiresAt }, { identityToken: jwt }, { identityToken: `${jwt}.x`, expiresAt }, null]) {
    const s = setup({ status: 200, data })
    await s.logIn()
    expect(await s.ask(), JSON.stringify(data)).toMatchObject({ code: -32603 })
  }
})
