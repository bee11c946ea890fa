// Per-IP budgets against a real sandbox: a client on this machine can send from any 127.0.0.0/8
// address (and ::1), so all of loopback must share one budget, not get one per address.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { postFrom, startTestSandbox, type TestSandbox } from '../sandbox.fixture.ts'

let sandbox: TestSandbox
let secret: string

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimits: { failedLoginsPerNameAndIp: { max: 10, windowMs: 60_000 } } })
  const { rows } = await sandbox.store.query<{ client_secret: string }>("SELECT client_secret FROM apps WHERE app_id = 'demo' AND environment = 'development'")
  secret = rows[0]!.client_secret
})
afterAll(() => sandbox?.dispose())

/** A password login sent from `localAddress` (any 127.x address is this machine's own). */
const login = (localAddress: string, username: string, password: string) =>
  postFrom(
    sandbox,
    localAddress,
    '/api/v2/auth/login',
    { username, password },
    { 'x-app-id': 'demo', 'x-environment': 'development', 'x-client-secret': secret },
  )

describe('per-IP budgets on loopback', () => {
  test('password guesses from 127.0.0.2, 127.0.0.3… share one budget: the 11th guess on one name is refused, whatever the source address', async () => {
    const register = await sandbox.post('/api/v2/auth/register', { username: 'loopback-victim', password: 'the-right-password' })
    expect(register.status).toBe(200)
    const statuses: number[] = []
    for (let i = 0; i < 14; i++) statuses.push((await login(`127.0.0.${2 + i}`, 'loopback-victim', `guess-${i}-wrong`)).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400))
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429])
    // The budget is per name: another name from yet another loopback address still gets its answer.
    expect((await login('127.0.0.99', 'someone-else', 'whatever-password')).status).toBe(400)
  })
})
