import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// Minting costs the provider a key decryption and a signature: one session cannot mint without end.

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimits: { identityTokensPerSession: { max: 3, windowMs: 60 * 60_000 } } })
})
afterAll(() => sandbox?.dispose())

test('a session mints identity tokens up to its hourly budget, then gets 429 with Retry-After; another session is not held', async () => {
  const first = await sandbox.signUp('mint-a@example.com')
  const mint = (token: string) => sandbox.post('/api/v2/wallet/identity-token', {}, token, 'demo')
  for (let i = 0; i < 3; i++) expect((await mint(first.walletToken)).status).toBe(200)
  const refused = await mint(first.walletToken)
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  const second = await sandbox.signUp('mint-b@example.com')
  expect((await mint(second.walletToken)).status).toBe(200)
})
