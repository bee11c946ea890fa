import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { softwareAuthenticator } from './authenticator.fixture.ts'
import { passkeyPolicy } from './ceremonies.ts'
import { passkeyStepUp } from './passkey-step-up.fixture.ts'

// Red team on passkeys, beyond passkey-attacks.test.ts: one app's or environment's passkey used in
// another, the answer telling an attacker whose credential it is, a logged-out session adding one,
// a sign-in challenge used to register, racing answers, and the Sec-Fetch-Site exemption of the
// wallet service's guard used by a client that is not the widget.

let sandbox: TestSandbox
let stepUp: ReturnType<typeof passkeyStepUp>
beforeAll(async () => {
  sandbox = await startTestSandbox()
  stepUp = passkeyStepUp(sandbox)
})
afterAll(() => sandbox?.dispose())

type Target = { app?: string; environment?: string }
const headersOf = ({ app = 'demo', environment = 'development' }: Target, token?: string) => ({
  'x-app-id': app,
  'x-environment': environment,
  ...(token ? { authorization: `Bearer ${token}` } : {}),
})
const postTo = (path: string, body: unknown, target: Target = {}, token?: string) =>
  sandbox.call(path, { method: 'POST', body: JSON.stringify(body), headers: headersOf(target, token) })
const signInOptions = async (target: Target = {}) => (await postTo('/api/v2/auth/passkey/options', {}, target)).body.data
const verify = (credential: unknown, target: Target = {}) => postTo('/api/v2/auth/passkey/verify', { credential }, target)
const sessions = async () => Number((await sandbox.store.query<{ n: string }>('SELECT count(*) AS n FROM refresh_tokens')).rows[0]!.n)
const passkeysOfAddress = async (address: string) =>
  (await sandbox.store.query('SELECT p.credential_id FROM passkey_credentials p JOIN wallets w ON w.user_id = p.user_id WHERE w.address = $1', [address])).rows

async function withPasskey(email: string, app = 'demo') {
  const wallet = await sandbox.signUp(email, app)
  const authenticator = softwareAuthenticator({ origin: sandbox.url })
  const options = (await stepUp.options({ email, walletToken: wallet.walletToken }, app)).body.data
  const registered = await postTo('/api/v2/wallet/passkeys', { credential: authenticator.register(options) }, { app }, wallet.walletToken)
  expect(registered.status, JSON.stringify(registered.body)).toBe(200)
  return { wallet, authenticator, credential: authenticator.credentials.at(-1)! }
}

describe('one app’s passkey in another app or environment (the RP ID is shared by all apps)', () => {
  test('an assertion made under another app’s or environment’s challenge signs nobody in', async () => {
    const { authenticator } = await withPasskey('rt-cross-app@example.com')
    const before = await sessions()
    for (const target of [{ app: 'smart' }, { app: 'stepup' }, { environment: 'production' }]) {
      const answer = await verify(authenticator.assert(await signInOptions(target)), target)
      expect(answer.status, JSON.stringify(target)).toBe(401)
      expect(answer.body.message).toMatch(/not registered with this app/)
    }
    expect(await sessions()).toBe(before)
    // The demo app's own challenge: the assertion held, its app is the one that signs in.
    expect((await verify(authenticator.assert(await signInOptions()))).status).toBe(200)
  })

  test('the same person in another app neither sees nor removes the first app’s passkey', async () => {
    const { wallet, credential } = await withPasskey('rt-same-person@example.com')
    const elsewhere = await sandbox.signUp('rt-same-person@example.com', 'smart')
    const list = await sandbox.call('/api/v2/wallet/passkeys', { headers: headersOf({ app: 'smart' }, elsewhere.walletToken) })
    expect(list.status).toBe(200)
    expect(list.body.data.passkeys).toEqual([])
    // Even with a proof the other app's session earned for this very id.
    const proof = await stepUp.removeProof({ email: 'rt-same-person@example.com', walletToken: elsewhere.walletToken }, credential.id, 'smart')
    const removed = await stepUp.remove(elsewhere.walletToken, credential.id, proof, headersOf({ app: 'smart' }))
    expect(removed.status).toBe(404)
    // The first app's wallet token does not pass as the other app's.
    const crossed = await sandbox.call('/api/v2/wallet/passkeys', { headers: headersOf({ app: 'smart' }, wallet.walletToken) })
    expect(crossed.status).toBe(401)
    expect(await passkeysOfAddress(wallet.address)).toHaveLength(1)
  })
})

describe('what a failed sign-in tells an attacker', () => {
  test('a guessed user handle on someone’s credential id, signed with the attacker’s own key: the same answer whether the guess is right or not', async () => {
    const victim = await withPasskey('rt-handle-victim@example.com')
    const attacker = await withPasskey('rt-handle-attacker@example.com')
    const answerFor = async (userHandle: string) =>
      (await verify(victim.authenticator.assert(await signInOptions(), victim.credential, { signWith: attacker.credential, userHandle }))).body.message
    const right = await answerFor(victim.credential.userHandle)
    const wrong = await answerFor(attacker.credential.userHandle)
    expect(right).toBe(wrong)
  })
})

describe('sessions and challenges', () => {
  test('a logged-out session cannot ask for, answer, list or remove passkeys', async () => {
    const { wallet, authenticator, credential } = await withPasskey('rt-logout@example.com')
    const pending = (await stepUp.options({ email: 'rt-logout@example.com', walletToken: wallet.walletToken })).body.data
    expect((await postTo('/api/v2/wallet/logout', { refreshToken: wallet.refreshToken })).status).toBe(200)
    const refused = [
      await postTo('/api/v2/wallet/passkeys/options', {}, {}, wallet.walletToken),
      await postTo('/api/v2/wallet/passkeys', { credential: authenticator.register(pending) }, {}, wallet.walletToken),
      await sandbox.call('/api/v2/wallet/passkeys', { headers: headersOf({}, wallet.walletToken) }),
      await sandbox.call(`/api/v2/wallet/passkeys/${credential.id}`, { method: 'DELETE', headers: headersOf({}, wallet.walletToken) }),
    ]
    for (const answer of refused) {
      expect(answer.status).toBe(401)
      expect(answer.body.message).toBe('Session revoked')
    }
    expect(await passkeysOfAddress(wallet.address)).toHaveLength(1)
  })

  test('a sign-in challenge answered as a registration adds nothing', async () => {
    const wallet = await sandbox.signUp('rt-signin-as-register@example.com')
    const authenticator = softwareAuthenticator({ origin: sandbox.url })
    const options = await signInOptions()
    const made = authenticator.register({
      ...options,
      user: { id: Buffer.from('x').toString('base64url'), name: 'x', displayName: 'x' },
      rp: { id: 'localhost', name: 'x' },
    })
    const answer = await postTo('/api/v2/wallet/passkeys', { credential: made }, {}, wallet.walletToken)
    expect(answer.status).toBe(400)
    expect(answer.body.message).toMatch(/expired or was already used/)
    expect(await passkeysOfAddress(wallet.address)).toEqual([])
  })

  test('one assertion sent twice at once signs in once', async () => {
    const { authenticator } = await withPasskey('rt-race-one@example.com')
    const assertion = authenticator.assert(await signInOptions())
    const answers = await Promise.all([verify(assertion), verify(assertion), verify(assertion)])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400])
  })

  test('two assertions with the same counter under two challenges, at once: one signs in', async () => {
    const { authenticator, credential } = await withPasskey('rt-race-counter@example.com')
    const next = credential.counter + 1
    const [a, b] = [await signInOptions(), await signInOptions()]
    const answers = await Promise.all([
      verify(authenticator.assert(a, credential, { counter: next })),
      verify(authenticator.assert(b, credential, { counter: next })),
    ])
    expect(answers.map((x) => x.status).sort()).toEqual([200, 401])
  })

  test('registrations racing each other do not pass the per-account cap', async () => {
    const wallet = await sandbox.signUp('rt-race-cap@example.com')
    const authenticator = softwareAuthenticator({ origin: sandbox.url })
    const options = async () => (await stepUp.options({ email: 'rt-race-cap@example.com', walletToken: wallet.walletToken })).body.data
    const register = async (made: unknown) => postTo('/api/v2/wallet/passkeys', { credential: made }, {}, wallet.walletToken)
    for (let i = 0; i < passkeyPolicy.maxPerUser - 1; i++) expect((await register(authenticator.register(await options()))).status).toBe(200)
    const made = [authenticator.register(await options()), authenticator.register(await options()), authenticator.register(await options())]
    const answers = await Promise.all(made.map(register))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    for (const refused of answers.filter((a) => a.status !== 200)) expect(refused.body.message).toMatch(/at most 10 passkeys/)
    expect(await passkeysOfAddress(wallet.address)).toHaveLength(passkeyPolicy.maxPerUser)
  })
})

describe('the guard’s same-origin read (no Origin, Sec-Fetch-Site: same-origin) is no way around the client secret', () => {
  const noSecret = (init: RequestInit & { headers: Record<string, string> }) => sandbox.call('/api/v2/auth/passkey/options', { ...init, secret: null })

  test('a POST claiming same-origin without an Origin still needs the secret, and a cross-site one too', async () => {
    const stored = async () => Number((await sandbox.store.query<{ n: string }>('SELECT count(*) AS n FROM passkey_challenges')).rows[0]!.n)
    const before = await stored()
    for (const site of ['same-origin', 'same-site', 'cross-site', 'none']) {
      const answer = await noSecret({ method: 'POST', body: '{}', headers: { ...headersOf({}), 'sec-fetch-site': site } })
      expect(answer.status, site).toBe(401)
      expect(answer.body.message).toBe('Client secret required')
    }
    expect(await stored()).toBe(before)
  })

  test('a GET from a page the app does not allow is refused even when it says same-origin', async () => {
    const { wallet } = await withPasskey('rt-fetch-site@example.com')
    const list = (headers: Record<string, string>) =>
      sandbox.call('/api/v2/wallet/passkeys', { secret: null, headers: { ...headersOf({}, wallet.walletToken), ...headers } })
    expect((await list({ 'sec-fetch-site': 'same-origin' })).status).toBe(200)
    const fromPage = await list({ 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' })
    expect(fromPage.status).toBe(403)
    for (const site of ['cross-site', 'same-site', 'none']) {
      const answer = await list({ 'sec-fetch-site': site })
      expect(answer.status, site).toBe(401)
      expect(answer.body.message).toBe('Client secret required')
    }
    // An allowed host page's own script, which sends its Origin on a cross-origin GET: the wallet
    // service is the widget's, so it needs the secret and gets no CORS grant.
    const hostPage = await list({ 'sec-fetch-site': 'cross-site', origin: 'http://localhost:3000' })
    expect(hostPage.status).toBe(401)
    expect(hostPage.headers.get('access-control-allow-origin')).toBeNull()
  })
})
