import { randomBytes } from 'node:crypto'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { migrate, openStore } from './store.ts'
import { findPgBin, startPgCluster, type PgCluster } from './pg-cluster.fixture.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// The same migrations and queries on a real PostgreSQL server: TEST_DATABASE_URL when set (a fresh
// database is made on it), otherwise a throw-away cluster from the binaries scripts/ensure-postgres.sh installs.

const external = process.env.TEST_DATABASE_URL
const bin = findPgBin()
if (!external && !bin) console.warn('postgres.test.ts skipped: no PostgreSQL server binaries. Run `bash scripts/ensure-postgres.sh` or set TEST_DATABASE_URL.')

describe.skipIf(!external && !bin)('the store on a real PostgreSQL server', () => {
  let cluster: PgCluster | undefined
  let databaseUrl: string
  let dropDatabase = async () => {}
  let sandbox: TestSandbox

  beforeAll(async () => {
    let serverUrl: string
    if (external) serverUrl = external
    else {
      cluster = await startPgCluster(bin!)
      serverUrl = cluster.url
    }
    // A database of our own, so a shared server is left as it was.
    const name = `wallet_kit_test_${randomBytes(6).toString('hex')}`
    const { default: pg } = await import('pg')
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    databaseUrl = url.toString()
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: serverUrl })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    }
  }, 120_000)

  afterAll(async () => {
    await sandbox?.dispose()
    await dropDatabase().catch(() => {})
    await cluster?.stop()
  })

  test('migrations apply once, in order', async () => {
    const store = await openStore({ dataDir: '', databaseUrl })
    try {
      const { rows } = await store.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')
      expect(rows.map((row) => row.name)).toEqual([
        '001_init.sql',
        '002_wallet_permission.sql',
        '003_identities.sql',
        '004_onramp_orders.sql',
        '005_code_guess_budget.sql',
        '006_smart_accounts.sql',
        '007_ramp_orders.sql',
        '008_ramp_payouts.sql',
        '009_gas_tank_settlement.sql',
        '010_code_budget_per_client.sql',
        '012_paymaster_signed_ops.sql',
        '013_identity_tokens.sql',
        '014_step_up.sql',
        '015_passkeys.sql',
        '016_passkey_step_up.sql',
        '017_user_step_up_threshold.sql',
      ])
      expect(await migrate(store)).toEqual([])
    } finally {
      await store.close()
    }
  })

  test('the sandbox runs on it: login, wallet, signing, sending, refresh rotation, passwords, signatures', async () => {
    sandbox = await startTestSandbox({ databaseUrl })
    const wallet = await sandbox.signUp('pg@example.com')
    const signed = await sandbox.post('/api/v2/wallet/sign-message', { network: 'local-1', message: 'postgres' }, wallet.walletToken)
    expect(await verifyMessage({ address: wallet.address, message: 'postgres', signature: signed.body.data.signature })).toBe(true)
    const sent = await sandbox.post('/api/v2/wallet/send-coin', { network: 'local-2', to: wallet.address, amount: '0.1' }, wallet.walletToken)
    expect(sent.body.data.txReceipt.status).toBe('success')

    const rotated = await sandbox.post('/api/v2/wallet/refresh', { refreshToken: wallet.refreshToken })
    expect(rotated.status).toBe(200)
    expect((await sandbox.post('/api/v2/wallet/refresh', { refreshToken: wallet.refreshToken })).body.message).toBe('Refresh token reused; session revoked')

    expect((await sandbox.post('/api/v2/auth/register', { username: 'pguser', password: 'long enough pw' })).status).toBe(200)
    expect((await sandbox.post('/api/v2/auth/login', { username: 'PgUser', password: 'long enough pw' })).body.data.isWalletCreated).toBe(false)
    expect((await sandbox.post('/api/v2/auth/login', { username: 'pguser', password: 'nope' })).body.message).toBe('username or password is incorrect')

    // The code-guess budget and logout, whose SQL PGlite alone would not prove.
    const { verificationToken, code } = await sandbox.requestCode('pg-guess@example.com')
    expect((await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code === '000000' ? '111111' : '000000' })).body.message).toBe(
      'Invalid OTP',
    )
    expect((await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })).status).toBe(200)
    // One row for the requesting client (all of loopback), one for the destination's tally over all clients.
    const { rows: budgets } = await sandbox.store.query<{ client: string; failures: number }>(
      "SELECT client, failures FROM otp_guess_budgets WHERE destination = 'pg-guess@example.com' ORDER BY client",
    )
    expect(budgets).toEqual([
      { client: '*', failures: 1 },
      { client: 'loopback', failures: 1 },
    ])
    const next = rotated.body.data as { walletToken: string; refreshToken: string }
    const fresh = await sandbox.signUp('pg-logout@example.com')
    expect((await sandbox.post('/api/v2/wallet/logout', { refreshToken: fresh.refreshToken }, fresh.walletToken)).status).toBe(200)
    expect((await sandbox.post('/api/v2/wallet/address', { network: 'evm' }, fresh.walletToken)).body.message).toBe('Session revoked')
    expect((await sandbox.post('/api/v2/wallet/address', { network: 'evm' }, next.walletToken)).body.message).toBe('Session revoked')

    const inbox = await sandbox.call('/dev/api/inbox?to=pg@example.com')
    expect(inbox.body[0]).toMatchObject({ channel: 'email', code: expect.stringMatching(/^\d{6}$/) })
    const config = await sandbox.call('/api/v1/apps/config')
    expect(config.body.data.google).toEqual({ enabled: true, clientId: 'demo-google-client', scriptUrl: `${sandbox.url}/oauth/google/gsi/client` })
  })
})
