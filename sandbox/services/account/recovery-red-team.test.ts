import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// Attacks on POST /api/v2/account/recover by someone holding a session (or its copy) and the
// recovery secret, or only one of them. A recovery ends the session it comes from and starts one:
// never two, never from an ended one, never for another app or another user's wallet.

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const recover = (secret0: string, token: string, app = 'demo', environment = 'development') =>
  sandbox.call('/api/v2/account/recover', {
    method: 'POST',
    body: new URLSearchParams({ secret0 }).toString(),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded', 'x-app-id': app, 'x-environment': environment },
  })
const refresh = (refreshToken: string) => sandbox.post('/api/v2/wallet/refresh', { refreshToken })

test('two recoveries raced from one session start one session, not two: the loser is refused and writes none', async () => {
  const wallet = await sandbox.signUp('rt-recover-race@example.com')
  const answers = await Promise.all([
    recover(wallet.secret0, wallet.walletToken),
    recover(wallet.secret0, wallet.walletToken),
    recover(wallet.secret0, wallet.walletToken),
  ])
  const won = answers.filter((answer) => answer.status === 200)
  expect(won).toHaveLength(1)
  for (const lost of answers.filter((answer) => answer.status !== 200)) expect(lost.body).toMatchObject({ status: 401, message: 'Session revoked', data: null })
  const { rows } = await sandbox.store.query<{ n: number }>(
    `SELECT count(DISTINCT family_id)::int AS n FROM refresh_tokens r JOIN session_sign_ins s USING (family_id) WHERE s.method = 'recovery' AND r.user_id = (SELECT user_id FROM wallets WHERE address = $1)`,
    [wallet.address],
  )
  expect(rows[0]!.n).toBe(1)
  expect((await refresh(wallet.refreshToken)).status).toBe(401)
  expect((await refresh(won[0]!.body.data.refreshToken)).status).toBe(200)
})

test('an ended session (logged out, or already recovered from) recovers nothing', async () => {
  const wallet = await sandbox.signUp('rt-recover-ended@example.com')
  const first = await recover(wallet.secret0, wallet.walletToken)
  expect(first.status).toBe(200)
  expect((await recover(wallet.secret0, wallet.walletToken)).body).toMatchObject({ status: 401, message: 'Session revoked' })
})

test("another user's secret, another app's or environment's token are refused, and the session lives on", async () => {
  const alice = await sandbox.signUp('rt-recover-alice@example.com')
  const bob = await sandbox.signUp('rt-recover-bob@example.com')
  const foreign = await recover(bob.secret0, alice.walletToken)
  expect(foreign.body).toMatchObject({ status: 400, message: 'Recovery secret does not match this wallet' })
  expect(JSON.stringify(foreign.body)).not.toContain(bob.secret0.slice(2))
  // A wallet token of the 'smart' app sent as the demo app's.
  const elsewhere = await sandbox.signUp('rt-recover-alice@example.com', 'smart')
  expect((await recover(elsewhere.secret0, elsewhere.walletToken, 'demo')).status).toBe(401)
  // The same app's token sent as its production environment's (with that environment's secret).
  expect((await recover(alice.secret0, alice.walletToken, 'demo', 'production')).body).toMatchObject({ status: 401, message: 'Invalid token' })
  expect((await refresh(alice.refreshToken)).status).toBe(200)
})
