import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readSeed } from '../app-config/apps.ts'
import { otherMachines, postFrom as postFromAddress, startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

/** The demo app's back end (its client secret). */
const backEnd = { 'x-app-id': 'demo', 'x-environment': 'development', 'x-client-secret': 'demo-client-secret' }

let sandbox: TestSandbox

beforeAll(async () => {
  sandbox = await startTestSandbox({
    // 127.0.0.2, 127.0.0.3 stand for other machines: loopback alone is one client.
    clientAddressOf: otherMachines,
    rateLimits: { codesPerIp: { max: 20, windowMs: 60_000 }, failedLoginsPerNameAndIp: { max: 3, windowMs: 60_000 } },
  })
})
afterAll(() => sandbox?.dispose())

const post = (path: string, body: unknown, app?: string) => sandbox.post(`/api/v2/auth/${path}`, body, undefined, app)
const age = (destination: string, seconds: number) =>
  sandbox.store.query(`UPDATE otp_codes SET created_at = created_at - interval '${seconds} seconds' WHERE destination = $1`, [destination])
/** POST from a chosen loopback source address (the whole of 127.0.0.0/8 is this machine), as another client would. */
const postFrom = (localAddress: string, path: string, body: unknown) => postFromAddress(sandbox, localAddress, `/api/v2/auth/${path}`, body, backEnd)
const inbox = async (to: string) => (await sandbox.call(`/dev/api/inbox?to=${to}`)).body as { code: string; channel: string }[]

describe('WhatsApp codes', () => {
  test('a code goes to the dev inbox and logs the phone number in', async () => {
    const sent = await post('login-whatsapp', { phoneNumber: '6281234567890' })
    expect(sent.body).toEqual({ status: 200, message: 'OK', data: { verificationToken: expect.any(String) } })
    const [message] = await inbox('6281234567890')
    expect(message).toMatchObject({ channel: 'whatsapp', code: expect.stringMatching(/^\d{6}$/) })
    const verified = await post('verify-whatsapp', { verificationToken: sent.body.data.verificationToken, otp: message!.code })
    expect(verified.body.data).toEqual({ isWalletCreated: false, accessToken: expect.any(String), refreshToken: expect.any(String) })
    const created = await sandbox.post('/api/v2/account/create', {}, verified.body.data.accessToken)
    expect(created.status).toBe(200)
  })

  test.each(['+6281234567', '0812345678', '1', '1234567890123456', '62 812 345', 'abc'])('refuses the phone number %j', async (phoneNumber) => {
    expect((await post('login-whatsapp', { phoneNumber })).body).toEqual({ status: 400, message: 'Invalid phone number', data: null })
  })

  test('refuses a number given as a JSON number, and an app without WhatsApp', async () => {
    expect((await post('login-whatsapp', { phoneNumber: 6281234 })).body.message).toBe('Invalid phone number')
    expect((await post('login-whatsapp', { phoneNumber: '6281234' }, 'elsewhere')).body).toEqual({
      status: 403,
      message: 'WhatsApp login is not enabled',
      data: null,
    })
  })

  test('a code sent by e-mail does not verify as a WhatsApp code', async () => {
    const { verificationToken, code } = await sandbox.requestCode('cross@example.com')
    expect((await post('verify-whatsapp', { verificationToken, otp: code })).body.message).toBe('Invalid verification token')
  })

  test('a resend waits 300 s', async () => {
    const phone = '447700900123'
    expect((await post('login-whatsapp', { phoneNumber: phone })).status).toBe(200)
    const early = await post('login-whatsapp', { phoneNumber: phone })
    expect(early.status).toBe(429)
    expect(early.body.message).toMatch(/^Please wait (300|299) seconds before requesting a new code$/)
    await age(phone, 301)
    expect((await post('login-whatsapp', { phoneNumber: phone })).status).toBe(200)
  })
})

describe('e-mail resend', () => {
  test('waits 30 s, then 300 s after a resend; the replaced code stops working', async () => {
    const email = 'resend@example.com'
    const first = await sandbox.requestCode(email)
    const early = await sandbox.call('/api/v2/auth/login-otp', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `email=${email}`,
    })
    expect(early.status).toBe(429)
    expect(early.headers.get('retry-after')).toMatch(/^(30|29)$/)
    await age(email, 31)
    const second = await sandbox.requestCode(email)
    expect((await post('verify-otp', { verificationToken: first.verificationToken, otp: first.code })).body.message).toBe('OTP expired, request a new code')
    await age(email, 31)
    await expect(sandbox.requestCode(email)).rejects.toThrow(/Please wait 2\d\d seconds/)
    expect((await post('verify-otp', { verificationToken: second.verificationToken, otp: second.code })).status).toBe(200)
    // A used code does not hold up the next login.
    expect((await sandbox.requestCode(email)).code).toMatch(/^\d{6}$/)
  })
})

describe('username and password', () => {
  test('register, create a wallet, log in again', async () => {
    const registered = await post('register', { username: 'Satoshi', password: 'correct horse battery' })
    expect(registered.body.data).toEqual({ isWalletCreated: false, accessToken: expect.any(String), refreshToken: expect.any(String) })
    const created = await sandbox.post('/api/v2/account/create', {}, registered.body.data.accessToken)
    const login = await post('login', { username: 'satoshi', password: 'correct horse battery' })
    expect(login.body.data).toEqual({
      isWalletCreated: true,
      walletToken: expect.any(String),
      refreshToken: expect.any(String),
      addresses: [{ network: 'evm', address: created.body.data.address[0].address }],
    })
    const { rows } = await sandbox.store.query<{ secret_hash: string }>("SELECT secret_hash FROM identities WHERE subject = 'satoshi'")
    expect(rows[0]!.secret_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
  })

  test.each([
    ['a wrong password', { username: 'satoshi', password: 'wrong horse' }],
    ['an unknown user', { username: 'nobody', password: 'whatever123' }],
  ])('%s gets the message the kit falls back on', async (_, body) => {
    expect((await post('login', body)).body).toEqual({ status: 400, message: 'username or password is incorrect', data: null })
  })

  test.each([
    [{ username: 'satoshi', password: 'another password' }, 'Username is already taken'],
    [{ username: 'shorty', password: 'short' }, 'Password must be at least 8 characters'],
    [{ username: 'a b', password: 'long enough' }, 'Username must be 3 to 32 letters, digits, dots, dashes or underscores'],
    [{ username: 'x', password: '' }, 'Please enter your username and password'],
    [{ username: 'x' }, 'Please enter your username and password'],
  ])('register refuses %j', async (body, message) => {
    expect((await post('register', body)).body).toEqual({ status: 400, message, data: null })
  })

  test('wrong passwords throttle the guessing client, not the account: the real user still logs in from elsewhere', async () => {
    await post('register', { username: 'target', password: 'the right one' })
    const attacker = '127.0.0.2'
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await postFrom(attacker, 'login', { username: 'target', password: `guess${attempt}` })).status).toBe(400)
    // The attacker is refused, even with the right password.
    const refused = await postFrom(attacker, 'login', { username: 'target', password: 'the right one' })
    expect(refused.status).toBe(429)
    expect(refused.body.message).toMatch(/^Too many requests, try again in \d+ seconds$/)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // Usernames are case-insensitive: another spelling is the same throttle.
    expect((await postFrom(attacker, 'login', { username: 'TARGET', password: 'guess' })).status).toBe(429)
    // The real user, from another address, is not locked out.
    const real = await postFrom('127.0.0.1', 'login', { username: 'target', password: 'the right one' })
    expect(real.status).toBe(200)
    expect(real.body.data).toMatchObject({ isWalletCreated: false, accessToken: expect.any(String) })
    // A third address starts with its own tries.
    expect((await postFrom('127.0.0.3', 'login', { username: 'target', password: 'wrong' })).status).toBe(400)
  })
})

describe('username and password, attacked', () => {
  const subjects = async (prefix: string) =>
    (await sandbox.store.query<{ subject: string }>("SELECT subject FROM identities WHERE provider = 'username' AND subject LIKE $1", [`${prefix}%`])).rows.map(
      (r) => r.subject,
    )

  test("the modal's fallback never registers over an account: a wrong password, then register, leaves the owner's password the only one", async () => {
    await post('register', { username: 'owner', password: 'the owner password' })
    expect((await post('login', { username: 'owner', password: 'attacker password' })).body.message).toBe('username or password is incorrect')
    expect((await post('register', { username: 'Owner ', password: 'attacker password' })).body).toEqual({
      status: 400,
      message: 'Username is already taken',
      data: null,
    })
    expect((await post('login', { username: 'owner', password: 'attacker password' })).status).toBe(400)
    expect((await post('login', { username: 'owner', password: 'the owner password' })).status).toBe(200)
    expect(await subjects('owner')).toEqual(['owner'])
  })

  test('a look-alike spelling is the same account or no account, never a second one', async () => {
    await post('register', { username: 'kate', password: 'kate password' })
    // U+212A KELVIN SIGN lower-cases to a plain k; full-width letters are not a username.
    expect((await post('register', { username: '\u212Aate', password: 'other password' })).body.message).toBe('Username is already taken')
    expect((await post('register', { username: 'ｋａｔｅ', password: 'other password' })).body.message).toBe(
      'Username must be 3 to 32 letters, digits, dots, dashes or underscores',
    )
    expect(await subjects('kate')).toEqual(['kate'])
  })

  test('a login with a NUL character is a 400 naming the field (http/exchange.ts refuses control characters before any route), never a 500 or a lookup', async () => {
    expect((await post('login', { username: 'sat\u0000oshi', password: 'correct horse battery' })).body).toEqual({
      status: 400,
      message: 'username must not contain control characters (found U+0000)',
      data: null,
    })
  })

  test.each([
    ['a name far longer than any username', 'x'.repeat(60_000)],
    ['characters no username has', "satoshi' OR '1'='1"],
  ])('a login with %s is a wrong login (400), never a 500 or a lookup', async (_, username) => {
    expect((await post('login', { username, password: 'correct horse battery' })).body).toEqual({
      status: 400,
      message: 'username or password is incorrect',
      data: null,
    })
  })

  test('a password longer than any a user could register is refused at login too, before any hashing', async () => {
    const started = performance.now()
    expect((await post('login', { username: 'satoshi', password: 'p'.repeat(60_000) })).body).toEqual({
      status: 400,
      message: 'username or password is incorrect',
      data: null,
    })
    expect((await post('register', { username: 'longpass', password: 'p'.repeat(257) })).body.message).toBe('Password is too long')
    expect(performance.now() - started).toBeLessThan(2000)
  })
})

describe('the username and password switch (usernamePassword.enabled)', () => {
  /** A call as the wallet frame makes it: from the provider's own origin, without the client secret. */
  const fromWidget = (path: string, body: unknown, app: string) =>
    sandbox.call(`/api/v2/auth/${path}`, { method: 'POST', body: JSON.stringify(body), headers: { origin: sandbox.url }, secret: null, app })
  const users = async (username: string) => (await sandbox.store.query('SELECT 1 FROM identities WHERE subject = $1', [username])).rows.length

  test("an app that leaves it off refuses the modal's login and register, and creates nobody", async () => {
    const demo = readSeed().find((seed) => seed.appId === 'demo')!
    expect(demo.settings.usernamePassword?.enabled ?? false).toBe(false)
    for (const path of ['register', 'login'])
      expect((await fromWidget(path, { username: 'frame-user', password: 'long enough pw' }, 'demo')).body).toEqual({
        status: 403,
        message: 'Username and password login is not enabled',
        data: null,
      })
    expect(await users('frame-user')).toBe(0)
  })

  test('an app that turns it on takes them from the modal', async () => {
    const seed = readSeed().find((s) => s.settings.usernamePassword?.enabled)!
    expect(seed).toBeDefined()
    const registered = await fromWidget('register', { username: 'frame-user', password: 'long enough pw' }, seed.appId)
    expect(registered.status).toBe(200)
    expect((await fromWidget('login', { username: 'frame-user', password: 'long enough pw' }, seed.appId)).status).toBe(200)
  })
})

describe('rate limits per IP', () => {
  test('code requests from one address run out', async () => {
    const statuses: number[] = []
    for (let index = 0; index < 21 && !statuses.includes(429); index++) {
      const response = await sandbox.call('/api/v2/auth/login-otp', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `email=ip-${index}@example.com`,
      })
      statuses.push(response.status)
    }
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(20)
    // Nothing was delivered for the refused request.
    expect(await inbox(`ip-${statuses.length - 1}@example.com`)).toEqual([])
  })
})
