import { beforeEach, describe, expect, test } from 'vitest'
import { SdkError } from '../errors.ts'
import { createClient } from '../index.ts'
import { onlyRequest, openRecorder } from '../recorder.fixture.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

const walletLogin = {
  isWalletCreated: true,
  walletToken: 'wt-1',
  refreshToken: 'rt-1',
  addresses: [
    { network: 'solana', address: 'So1' },
    { network: 'evm', address: '0xEvm' },
  ],
}

describe('auth calls: wire format', () => {
  test('login-otp sends the e-mail form-encoded and returns the verification token', async () => {
    await rec.rules({ method: 'POST', path: '/api/v2/auth/login-otp', body: { verificationToken: 'vt-9' } })
    const client = createClient({ appId: 'demo', baseUrls: rec.baseUrls })
    expect(await client.auth.loginOtp({ email: 'a+b@example.com' })).toEqual({ verificationToken: 'vt-9' })
    const req = await onlyRequest(rec)
    expect(req.method).toBe('POST')
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(req.headers['x-app-id']).toBe('demo')
    expect(req.headers['x-environment']).toBe('development')
    expect(req.headers.authorization).toBeUndefined()
    expect(req.headers['x-client-secret']).toBeUndefined()
    expect(req.body).toBe('email=a%2Bb%40example.com')
  })

  test.each([
    ['verifyOtp', '/auth/verify-otp', { verificationToken: 'vt', otp: '123456' }],
    ['google', '/auth/google', { credential: 'jwt', expiredDate: '2030-01-01' }],
    ['apple', '/auth/apple', { credential: 'apple-jwt', expireDate: '2030-01-01' }],
    ['telegram', '/auth/telegram', { id: 7, first_name: 'A', auth_date: 1700000000, hash: 'h', username: 'u' }],
    ['login', '/auth/login', { username: 'alice', password: 'pw' }],
    ['register', '/auth/register', { username: 'alice', password: 'pw' }],
    ['verifyWhatsapp', '/auth/verify-whatsapp', { verificationToken: 'vt', otp: '654321' }],
  ] as const)('%s posts JSON to %s', async (name, path, params) => {
    const answer = { isWalletCreated: false, accessToken: 'at', refreshToken: 'rt' }
    await rec.rules({ method: 'POST', path: `/api/v2${path}`, body: answer })
    const client = createClient({ appId: 'demo', env: 'production', clientSecret: 'cs', baseUrls: rec.baseUrls })
    const call = client.auth[name] as (p: object) => Promise<unknown>
    expect(await call(params)).toEqual(answer)
    const req = await onlyRequest(rec)
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.headers['x-environment']).toBe('production')
    expect(req.headers['x-client-secret']).toBe('cs')
    expect(JSON.parse(req.body)).toEqual(params)
    // No wallet yet: nothing is stored.
    expect(client.tokens.get()).toEqual({})
  })

  test('login-whatsapp posts the phone number and returns the verification token', async () => {
    await rec.rules({ path: '/api/v2/auth/login-whatsapp', body: { verificationToken: 'wa-1' } })
    const client = createClient({ baseUrls: rec.baseUrls })
    expect(await client.auth.loginWhatsapp({ phoneNumber: '628123' })).toEqual({ verificationToken: 'wa-1' })
    const req = await onlyRequest(rec)
    expect(JSON.parse(req.body)).toEqual({ phoneNumber: '628123' })
    expect(req.headers['x-app-id']).toBeUndefined()
  })

  test('a login with a wallet keeps its tokens and evm address in the holder', async () => {
    await rec.rules({ path: '/api/v2/auth/verify-otp', body: walletLogin })
    const client = createClient({ baseUrls: rec.baseUrls })
    const seen: unknown[] = []
    client.tokens.subscribe((tokens) => seen.push(tokens))
    await client.auth.verifyOtp({ verificationToken: 'vt', otp: '111111' })
    expect(client.tokens.get()).toEqual({ walletToken: 'wt-1', refreshToken: 'rt-1', address: '0xEvm' })
    expect(seen).toHaveLength(1)
  })

  test('only the evm entry is the session address: a list without one stores none', async () => {
    await rec.rules({ path: '/api/v2/auth/verify-otp', body: { ...walletLogin, addresses: [{ network: 'solana', address: 'So1' }] } })
    const client = createClient({ baseUrls: rec.baseUrls })
    await client.auth.verifyOtp({ verificationToken: 'vt', otp: '111111' })
    expect(client.tokens.get()).toEqual({ walletToken: 'wt-1', refreshToken: 'rt-1' })
  })
})

describe('google code exchange (the kit social flow)', () => {
  test('sends the code with x-app-id', async () => {
    await rec.rules({ path: '/api/v2/auth/google', body: { isWalletCreated: false, accessToken: 'a', refreshToken: 'r' } })
    const client = createClient({ appId: 'demo', baseUrls: rec.baseUrls })
    expect(await client.auth.googleCode({ code: 'c0de' })).toMatchObject({ accessToken: 'a' })
    const req = await onlyRequest(rec)
    expect(req.headers['x-app-id']).toBe('demo')
    expect(JSON.parse(req.body)).toEqual({ code: 'c0de' })
  })

  test('a non-OK answer is Failed to verify google', async () => {
    await rec.rules({ path: '/api/v2/auth/google', status: 401, message: 'bad code' })
    const client = createClient({ appId: 'demo', baseUrls: rec.baseUrls })
    const error = await client.auth.googleCode({ code: 'x' }).catch((e: SdkError) => e)
    expect(error).toBeInstanceOf(SdkError)
    expect([(error as SdkError).message, (error as SdkError).code]).toEqual(['Failed to verify google', '401'])
  })
})

describe('service-level login: a user with a wallet, ramp configured and no ramp token gets a ramp account', () => {
  const rampable = { clientId: 'cid', privateKey: 'unused-here' }

  test('wallet + ramp config + no ramp token: creates the ramp account and adds its token', async () => {
    await rec.rules({ path: '/api/v2/auth/login', body: walletLogin }, { path: '/api/v2/account/rampable/create', body: { rampableAccessToken: 'ramp-1' } })
    const client = createClient({ appId: 'demo', rampable, baseUrls: rec.baseUrls })
    const result = await client.auth.login({ username: 'u', password: 'p' })
    expect(result.rampableAccessToken).toBe('ramp-1')
    expect(client.tokens.get().rampAccessToken).toBe('ramp-1')
    const [, create] = await rec.requests()
    expect(create?.method).toBe('POST')
    expect(create?.headers.authorization).toBe('Bearer wt-1')
  })

  test('a ramp token that came back is used as is', async () => {
    await rec.rules({ path: '/api/v2/auth/login', body: { ...walletLogin, rampableAccessToken: 'ramp-0' } })
    const client = createClient({ rampable, baseUrls: rec.baseUrls })
    expect((await client.auth.login({ username: 'u', password: 'p' })).rampableAccessToken).toBe('ramp-0')
    expect(await rec.requests()).toHaveLength(1)
  })

  test('no ramp config, or no wallet: no ramp account', async () => {
    await rec.rules(
      { path: '/api/v2/auth/login', body: walletLogin, times: 1 },
      { path: '/api/v2/auth/login', body: { isWalletCreated: false, accessToken: 'a', refreshToken: 'r' } },
    )
    await createClient({ baseUrls: rec.baseUrls }).auth.login({ username: 'u', password: 'p' })
    await createClient({ rampable, baseUrls: rec.baseUrls }).auth.login({ username: 'u', password: 'p' })
    expect((await rec.requests()).map((r) => r.path)).toEqual(['/api/v2/auth/login', '/api/v2/auth/login'])
  })
})

describe('loginOrRegister: a wrong login registers the same credentials', () => {
  const credentials = { username: 'newcomer', password: 'long enough pw' }

  test("'username or password is incorrect' registers the same credentials", async () => {
    await rec.rules(
      { path: '/api/v2/auth/login', status: 400, message: 'username or password is incorrect' },
      { path: '/api/v2/auth/register', body: { isWalletCreated: false, accessToken: 'at', refreshToken: 'rt' } },
    )
    const result = await createClient({ appId: 'demo', baseUrls: rec.baseUrls }).auth.loginOrRegister(credentials)
    expect(result).toEqual({ isWalletCreated: false, accessToken: 'at', refreshToken: 'rt' })
    const requests = await rec.requests()
    expect(requests.map((r) => [r.path, JSON.parse(r.body)])).toEqual([
      ['/api/v2/auth/login', credentials],
      ['/api/v2/auth/register', credentials],
    ])
  })

  test("a taken username (a wrong password for someone's account) stays 'username or password is incorrect': the modal neither says the name exists nor signs in", async () => {
    await rec.rules(
      { path: '/api/v2/auth/login', status: 400, message: 'username or password is incorrect' },
      { path: '/api/v2/auth/register', status: 400, message: 'Username is already taken' },
    )
    const error = await createClient({ baseUrls: rec.baseUrls })
      .auth.loginOrRegister(credentials)
      .catch((e: SdkError) => e)
    expect([(error as SdkError).message, (error as SdkError).code]).toEqual(['username or password is incorrect', '400'])
    expect((await rec.requests()).map((r) => r.path)).toEqual(['/api/v2/auth/login', '/api/v2/auth/register'])
  })

  test("a new username's own problem (a short password) is the register's message", async () => {
    await rec.rules(
      { path: '/api/v2/auth/login', status: 400, message: 'username or password is incorrect' },
      { path: '/api/v2/auth/register', status: 400, message: 'Password must be at least 8 characters' },
    )
    const error = await createClient({ baseUrls: rec.baseUrls })
      .auth.loginOrRegister(credentials)
      .catch((e: SdkError) => e)
    expect((error as SdkError).message).toBe('Password must be at least 8 characters')
  })

  test('a right login does not register', async () => {
    await rec.rules({ path: '/api/v2/auth/login', body: walletLogin })
    expect((await createClient({ baseUrls: rec.baseUrls }).auth.loginOrRegister(credentials)).walletToken).toBe('wt-1')
    expect((await rec.requests()).map((r) => r.path)).toEqual(['/api/v2/auth/login'])
  })

  test.each([
    [429, 'Too many requests, try again in 60 seconds'],
    [400, 'Please enter your username and password'],
    [403, 'Username and password login is not enabled'],
  ])('any other failure (%i %s) stays a failure and registers nobody', async (status, message) => {
    await rec.rules({ path: '/api/v2/auth/login', status, message })
    const error = await createClient({ baseUrls: rec.baseUrls })
      .auth.loginOrRegister(credentials)
      .catch((e: SdkError) => e)
    expect([(error as SdkError).message, (error as SdkError).code]).toEqual([message, String(status)])
    expect((await rec.requests()).map((r) => r.path)).toEqual(['/api/v2/auth/login'])
  })
})
