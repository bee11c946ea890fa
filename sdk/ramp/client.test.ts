import { beforeEach, describe, expect, test } from 'vitest'
import type { Context } from '../config.ts'
import { resolveContext } from '../config.ts'
import { SdkError } from '../errors.ts'
import { createClient, createRampClient } from '../index.ts'
import { createTokenHolder } from '../config.ts'
import { onlyRequest, openRecorder } from '../recorder.fixture.ts'
import { type RampClient, rampRequest } from './client.ts'

const rec = await openRecorder()
const keys = await rec.rsaKeys()
beforeEach(() => rec.reset())

type Row = [name: string, method: string, path: string, call: (c: RampClient) => Promise<unknown>, query: object, body?: object]
const order = { amount: 100000, currency: 'IDR', receiverWalletAddress: '0xA' }
const quote = { amount: 100000, inputCurrency: 'IDR', outputCurrency: 'USDT', withLimit: false }
const quoteQuery = { amount: '100000', inputCurrency: 'IDR', outputCurrency: 'USDT', withLimit: 'false' }
const rows: Row[] = (['offramp', 'onramp'] as const).flatMap((dir): Row[] => [
  [`${dir} create`, 'POST', `/${dir}`, (c) => c[dir].create(order), {}, order],
  [`${dir} quote`, 'GET', `/${dir}/quote`, (c) => c[dir].quote(quote), quoteQuery],
  [`${dir} list`, 'GET', `/${dir}`, (c) => c[dir].list({ page: 2, limit: 10 }), { page: '2', limit: '10' }],
  [`${dir} detail`, 'GET', `/${dir}/detail/tx 1`, (c) => c[dir].detail('tx 1'), {}],
])
rows.push(
  ['recipient create', 'POST', '/recipient', (c) => c.recipient.create({ name: 'Bob', bank: 'BCA' }), {}, { name: 'Bob', bank: 'BCA' }],
  ['recipient list', 'GET', '/recipient', (c) => c.recipient.list(undefined), {}],
  ['recipient update', 'PATCH', '/recipient/r1', (c) => c.recipient.update('r1', { name: 'Rob' }), {}, { name: 'Rob' }],
  ['recipient delete', 'DELETE', '/recipient/r1', (c) => c.recipient.delete('r1'), {}],
  ['reference banks', 'GET', '/reference/banks', (c) => c.reference.banks(undefined), {}],
  [
    'reference cryptos',
    'GET',
    '/reference/cryptos',
    (c) => c.reference.cryptos({ transactionType: 'onramp', blockchainType: 'EVM' }),
    { transactionType: 'onramp', blockchainType: 'EVM' },
  ],
  ['reference currencies', 'GET', '/reference/currencies', (c) => c.reference.currencies({ limit: 100 }), { limit: '100' }],
  ['reference payment methods', 'GET', '/reference/payment-methods', (c) => c.reference.paymentMethods(undefined), {}],
)

describe('with client id and private key: RSA-signed, verified with the public key', () => {
  test.each(rows)('%s → %s /v1%s', async (_, method, path, call, query, body) => {
    await rec.rules({ method, path: `/v1${path.replace(' ', '%20')}`, body: { ok: true } })
    const tokens = createTokenHolder({ rampAccessToken: 'ramp-at' })
    const ramp = createRampClient({ rampable: { clientId: 'cid', privateKey: keys.privateKeyPkcs8 }, baseUrls: rec.baseUrls, tokens })
    expect(await call(ramp)).toEqual({ ok: true })
    const req = await onlyRequest(rec)
    expect(req.method).toBe(method)
    expect(req.query).toEqual(query)
    expect(req.headers.authorization).toBe('Bearer ramp-at')
    expect(req.headers['x-client-id']).toBe('cid')
    expect(req.headers['x-client-secret']).toBeUndefined()
    const timestamp = req.headers['x-timestamp']!
    const signed = method === 'GET' || method === 'DELETE' ? `cid:${timestamp}` : `cid:${timestamp}:${await rec.sha256(JSON.stringify(body))}`
    expect(await rec.rsaVerify(keys.publicKey, signed, req.headers['x-signature']!)).toBe(true)
    if (body) {
      expect(JSON.parse(req.body)).toEqual(body)
      expect(req.headers['content-type']).toBe('application/json')
    } else expect(req.body).toBe('')
  })
})

describe('without a private key: x-client-secret', () => {
  test('the configured ramp client secret is sent', async () => {
    await rec.rules({ path: '/v1/reference/cryptos', body: [] })
    await createRampClient({ rampableClientSecret: 'rcs', baseUrls: rec.baseUrls }).reference.cryptos(undefined)
    const req = await onlyRequest(rec)
    expect(req.headers['x-client-secret']).toBe('rcs')
    expect(req.headers['x-signature']).toBeUndefined()
    expect(req.headers.authorization).toBeUndefined()
  })

  test('a missing secret is fetched once from the organization and kept', async () => {
    await rec.rules(
      { method: 'GET', path: '/api/v2/organization', delayMs: 50, body: { isRampableEnabled: true, rampableClientSecret: 'org-secret' } },
      { path: '/v1/reference/currencies', body: [] },
    )
    const client = createClient({ clientSecret: 'app', baseUrls: rec.baseUrls })
    await Promise.all([client.ramp.reference.currencies({ limit: 100 }), client.ramp.reference.currencies({ limit: 100 })])
    await client.ramp.reference.currencies(undefined)
    const requests = await rec.requests()
    expect(requests.map((r) => r.path)).toEqual(['/api/v2/organization', ...Array(3).fill('/v1/reference/currencies')])
    expect(requests[0]!.headers['x-client-secret']).toBe('app')
    expect(requests.slice(1).map((r) => r.headers['x-client-secret'])).toEqual(Array(3).fill('org-secret'))
    expect(client.tokens.get().rampClientSecret).toBe('org-secret')
  })

  test('isRampableEnabled false: RAMPABLE_NOT_ENABLED, and no ramp call', async () => {
    await rec.rules({ path: '/api/v2/organization', body: { isRampableEnabled: false, rampableClientSecret: null } })
    const error = (await createRampClient({ baseUrls: rec.baseUrls })
      .onramp.list(undefined)
      .catch((e) => e)) as SdkError
    expect(error).toBeInstanceOf(SdkError)
    expect(error.code).toBe('RAMPABLE_NOT_ENABLED')
    expect(error.message).toBe("Please enable the rampable integration through the provider's client dashboard")
    expect((await rec.requests()).map((r) => r.path)).toEqual(['/api/v2/organization'])
  })

  test('a failing organization lookup keeps its server error', async () => {
    await rec.rules({ path: '/api/v2/organization', status: 403, message: 'Forbidden' })
    const error = (await createRampClient({ baseUrls: rec.baseUrls })
      .onramp.list(undefined)
      .catch((e) => e)) as SdkError
    expect([error.message, error.code]).toEqual(['Forbidden', '403'])
  })
})

test('signing failures are request setup errors: method not allowed, bad key', async () => {
  const ctx: Context = resolveContext({ rampable: { clientId: 'c', privateKey: keys.privateKeyPkcs8 }, baseUrls: rec.baseUrls })
  const method = (await rampRequest(ctx, 'OPTIONS' as 'GET', '/x', {}).catch((e) => e)) as SdkError
  expect([method.message, method.code]).toEqual(['method not allowed', 'REQUEST_SETUP_ERROR'])
  const badKey = (await createRampClient({ rampable: { clientId: 'c', privateKey: 'nope' }, baseUrls: rec.baseUrls })
    .reference.banks(undefined)
    .catch((e) => e)) as SdkError
  expect(badKey.code).toBe('REQUEST_SETUP_ERROR')
  expect(await rec.requests()).toHaveLength(0)
})
