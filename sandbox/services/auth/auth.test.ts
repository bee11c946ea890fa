import { createPublicClient, http, parseEther, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { otpPolicy } from './otp.ts'
import { json, startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

let sandbox: TestSandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const post = (path: string, body: unknown, token?: string) =>
  sandbox.call(path, {
    method: 'POST',
    body: typeof body === 'string' ? body : json(body),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })

async function login(email: string) {
  const { verificationToken, code } = await sandbox.requestCode(email)
  const verified = await post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
  expect(verified.status).toBe(200)
  return verified.body.data
}

async function signUp(email: string) {
  const first = await login(email)
  const created = await post('/api/v2/account/create', {}, first.accessToken)
  expect(created.status).toBe(200)
  return created.body.data as { walletToken: string; refreshToken: string; secret0: string; address: { network: string; address: Address }[] }
}

describe('e-mail OTP login', () => {
  test('the code arrives in the dev inbox and logs a new user in without a wallet', async () => {
    const sent = await sandbox.call('/api/v2/auth/login-otp', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=New.User%40Example.com',
    })
    expect(sent.body).toMatchObject({ status: 200, data: { verificationToken: expect.any(String) } })

    const inbox = await sandbox.call('/dev/api/inbox?to=new.user@example.com')
    expect(inbox.body).toHaveLength(1)
    const [message] = inbox.body
    expect(message).toEqual({
      id: expect.any(String),
      to: 'new.user@example.com',
      channel: 'email',
      subject: 'Your Wallet Kit Demo login code',
      text: expect.stringContaining(message.code),
      code: expect.stringMatching(/^\d{6}$/),
      createdAt: expect.any(String),
    })

    const verified = await post('/api/v2/auth/verify-otp', { verificationToken: sent.body.data.verificationToken, otp: message.code })
    expect(verified.body).toEqual({
      status: 200,
      message: 'OK',
      data: { isWalletCreated: false, accessToken: expect.any(String), refreshToken: expect.any(String) },
    })
    // A code works once.
    const again = await post('/api/v2/auth/verify-otp', { verificationToken: sent.body.data.verificationToken, otp: message.code })
    expect(again.body).toEqual({ status: 400, message: 'OTP expired, request a new code', data: null })
  })

  test('the inbox lists newest first', async () => {
    await sandbox.requestCode('twice@example.com')
    // The resend countdown (30 s for e-mail) has run out.
    await sandbox.store.query("UPDATE otp_codes SET created_at = created_at - interval '31 seconds' WHERE destination = $1", ['twice@example.com'])
    const second = await sandbox.requestCode('twice@example.com')
    const inbox = await sandbox.call('/dev/api/inbox?to=twice@example.com')
    expect(inbox.body).toHaveLength(2)
    expect(inbox.body[0].code).toBe(second.code)
  })

  test('a wrong code is refused, and the fifth wrong attempt kills the code', async () => {
    const { verificationToken, code } = await sandbox.requestCode('guesser@example.com')
    const wrong = code === '000000' ? '111111' : '000000'
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await post('/api/v2/auth/verify-otp', { verificationToken, otp: wrong })
      expect(response.body).toEqual({ status: 400, message: 'Invalid OTP', data: null })
    }
    const right = await post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
    expect(right.body).toEqual({ status: 400, message: 'OTP expired, request a new code', data: null })
  })

  test('an expired code is refused', async () => {
    const { verificationToken, code } = await sandbox.requestCode('slow@example.com')
    await sandbox.store.query("UPDATE otp_codes SET expires_at = now() - interval '1 second' WHERE destination = $1", ['slow@example.com'])
    const response = await post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
    expect(response.body.message).toBe('OTP expired, request a new code')
  })

  test.each([['not-an-email'], ['a@b'], [''], ['spaces in@example.com']])('login-otp refuses %j', async (email) => {
    const response = await sandbox.call('/api/v2/auth/login-otp', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
    })
    expect(response.body).toEqual({ status: 400, message: 'Invalid email', data: null })
  })

  test('rate-limits codes per address', async () => {
    for (let index = 0; index < 10; index++) {
      await sandbox.requestCode('flood@example.com')
      // As if each code had been used: a used code does not hold up the next one.
      await sandbox.store.query('UPDATE otp_codes SET consumed_at = now() WHERE destination = $1', ['flood@example.com'])
    }
    const limited = await sandbox.call('/api/v2/auth/login-otp', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=flood@example.com',
    })
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ status: 429, message: 'Too many codes requested, try again later', data: null })
  })
})

describe('guessing codes', () => {
  const guess = (verificationToken: string, otp: string) => post('/api/v2/auth/verify-otp', { verificationToken, otp })
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000')

  test(`a mailbox takes ${otpPolicy.maxFailuresPerClient} wrong codes a day from one client, however many codes it asks for; then even its right code is refused`, async () => {
    const email = 'budget@example.com'
    const perCode = otpPolicy.maxAttempts
    for (let spent = 0; spent < otpPolicy.maxFailuresPerClient; spent += perCode) {
      // A code killed by wrong tries does not hold up the next one.
      const { verificationToken, code } = await sandbox.requestCode(email)
      for (let attempt = 0; attempt < perCode; attempt++) expect((await guess(verificationToken, wrongFor(code))).body.message).toBe('Invalid OTP')
    }
    // Sending a new code still works and does not reset the budget.
    const { verificationToken, code } = await sandbox.requestCode(email)
    const right = await guess(verificationToken, code)
    expect(right.status).toBe(429)
    expect(right.body.message).toBe('Too many wrong codes for this e-mail address, try again in 24 hours')
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(23 * 60 * 60)
    expect((await guess(verificationToken, wrongFor(code))).status).toBe(429)

    // Another mailbox is not affected.
    const other = await sandbox.requestCode('not-budget@example.com')
    expect((await guess(other.verificationToken, other.code)).status).toBe(200)

    // Once the window has passed, the code works again.
    await sandbox.store.query("UPDATE otp_guess_budgets SET window_start = window_start - interval '24 hours' WHERE destination = $1", [email])
    expect((await guess(verificationToken, code)).status).toBe(200)
  })
})

describe('wallet creation', () => {
  test('creates a funded wallet whose address the wallet token reads back', async () => {
    const created = await signUp('funded@example.com')
    expect(created).toEqual({
      walletToken: expect.any(String),
      refreshToken: expect.any(String),
      secret0: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      address: [{ network: 'evm', address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) }],
    })
    const address = created.address[0]!.address
    const client = createPublicClient({ transport: http(`${sandbox.url}/rpc/31337`) })
    expect(await client.getChainId()).toBe(31337)
    expect(await client.getBalance({ address })).toBe(parseEther('10'))

    const read = await post('/api/v2/wallet/address', { network: 'evm' }, created.walletToken)
    expect(read.body).toEqual({ status: 200, message: 'OK', data: { address } })
    const byChain = await post('/api/v2/wallet/address', { network: 'local-1' }, created.walletToken)
    expect(byChain.body.data.address).toBe(address)
  })

  test('logging in again returns the same wallet', async () => {
    const created = await signUp('returning@example.com')
    const again = await login('returning@example.com')
    expect(again).toEqual({
      isWalletCreated: true,
      walletToken: expect.any(String),
      refreshToken: expect.any(String),
      addresses: [{ network: 'evm', address: created.address[0]!.address }],
    })
  })

  test('a second create is refused and the private key is stored encrypted', async () => {
    const first = await login('once@example.com')
    expect((await post('/api/v2/account/create', {}, first.accessToken)).status).toBe(200)
    const second = await post('/api/v2/account/create', {}, first.accessToken)
    expect(second.body).toEqual({ status: 400, message: 'Wallet already created', data: null })
    const { rows } = await sandbox.store.query<{ encrypted_key: string }>('SELECT encrypted_key FROM wallets')
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(row.encrypted_key).toMatch(/^v1\./)
  })

  test('tokens are checked: missing, wrong kind, other app, garbage', async () => {
    const created = await signUp('tokens@example.com')
    const noToken = await post('/api/v2/wallet/address', { network: 'evm' })
    expect(noToken.body).toEqual({ status: 401, message: 'Missing bearer token', data: null })
    // A wallet token cannot create an account, a refresh token cannot read an address.
    expect((await post('/api/v2/account/create', {}, created.walletToken)).status).toBe(401)
    expect((await post('/api/v2/wallet/address', { network: 'evm' }, created.refreshToken)).status).toBe(401)
    expect((await post('/api/v2/wallet/address', { network: 'evm' }, 'x.y.z')).status).toBe(401)
    const otherEnv = await sandbox.call('/api/v2/wallet/address', {
      method: 'POST',
      body: json({ network: 'evm' }),
      headers: { authorization: `Bearer ${created.walletToken}`, 'x-environment': 'production' },
    })
    expect(otherEnv.status).toBe(401)
  })
})

describe('refresh rotation', () => {
  test('each refresh token works once; reuse revokes the whole family', async () => {
    const created = await signUp('rotate@example.com')
    const first = await post('/api/v2/wallet/refresh', { refreshToken: created.refreshToken })
    expect(first.body).toEqual({ status: 200, message: 'OK', data: { walletToken: expect.any(String), refreshToken: expect.any(String) } })
    expect(first.body.data.refreshToken).not.toBe(created.refreshToken)
    const address = await post('/api/v2/wallet/address', { network: 'evm' }, first.body.data.walletToken)
    expect(address.body.data.address).toBe(created.address[0]!.address)

    const second = await post('/api/v2/wallet/refresh', { refreshToken: first.body.data.refreshToken })
    expect(second.status).toBe(200)

    // Replaying the first, already used token: refused, and the live successor dies with it.
    const replay = await post('/api/v2/wallet/refresh', { refreshToken: created.refreshToken })
    expect(replay.body).toEqual({ status: 401, message: 'Refresh token reused; session revoked', data: null })
    const afterRevoke = await post('/api/v2/wallet/refresh', { refreshToken: second.body.data.refreshToken })
    expect(afterRevoke.body).toEqual({ status: 401, message: 'Session revoked', data: null })

    // Another login is another family and still works.
    const fresh = await login('rotate@example.com')
    expect((await post('/api/v2/wallet/refresh', { refreshToken: fresh.refreshToken })).status).toBe(200)
  })

  test('a refresh token is not a wallet token and garbage is refused', async () => {
    const created = await signUp('not-refresh@example.com')
    expect((await post('/api/v2/wallet/refresh', { refreshToken: created.walletToken })).status).toBe(401)
    expect((await post('/api/v2/wallet/refresh', { refreshToken: 'nonsense' })).status).toBe(401)
  })
})

describe('input validation', () => {
  test.each([
    ['malformed JSON', '/api/v2/auth/verify-otp', '{"verificationToken":', 'Malformed JSON body'],
    ['array body', '/api/v2/auth/verify-otp', '[1,2]', 'Body must be a JSON object'],
    ['missing token', '/api/v2/auth/verify-otp', json({ otp: '123456' }), 'verificationToken is required'],
    ['numeric otp', '/api/v2/auth/verify-otp', json({ verificationToken: 'abc', otp: 123456 }), 'otp must be a string'],
    ['unknown verification token', '/api/v2/auth/verify-otp', json({ verificationToken: 'abc', otp: '123456' }), 'Invalid verification token'],
    ['refresh without token', '/api/v2/wallet/refresh', json({}), 'refreshToken is required'],
    ['refresh token of the wrong type', '/api/v2/wallet/refresh', json({ refreshToken: 42 }), 'refreshToken must be a string'],
  ])('%s → 400', async (_, path, body, message) => {
    const response = await post(path, body)
    expect(response.body).toEqual({ status: 400, message, data: null })
  })

  test('login-otp wants a form body', async () => {
    const response = await post('/api/v2/auth/login-otp', { email: 'json@example.com' })
    expect(response.status).toBe(400)
    const inbox = await sandbox.call('/dev/api/inbox?to=json@example.com')
    expect(inbox.body).toEqual([])
  })

  test('bad account/create bodies write nothing', async () => {
    const first = await login('careful@example.com')
    for (const body of ['{oops', json({ expireDate: 'soon' }), json({ expireDate: '2000-01-01' }), json({ rampable: 'yes' })]) {
      const response = await post('/api/v2/account/create', body, first.accessToken)
      expect(response.status).toBe(400)
    }
    const { rows } = await sandbox.store.query("SELECT w.id FROM wallets w JOIN users u ON u.id = w.user_id WHERE u.email = 'careful@example.com'")
    expect(rows).toEqual([])
    const bad = await post('/api/v2/wallet/address', { network: 'solana' }, (await signUp('careful2@example.com')).walletToken)
    expect(bad.body).toEqual({ status: 400, message: 'Unsupported network', data: null })
  })

  test('an oversized body is refused', async () => {
    const response = await post('/api/v2/auth/verify-otp', json({ verificationToken: 'x'.repeat(100_000), otp: '123456' }))
    expect(response.body).toEqual({ status: 413, message: 'Request body too large', data: null })
  })
})
