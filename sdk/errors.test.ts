import { beforeEach, describe, expect, test } from 'vitest'
import { SdkError, normalizeError } from './errors.ts'
import { request } from './http.ts'
import { createClient } from './index.ts'
import { signSmartAccountRequest } from './signing/hmac.ts'
import { openRecorder } from './recorder.fixture.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

const client = () => createClient({ appId: 'demo', baseUrls: rec.baseUrls })
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (error: unknown) => error as SdkError,
  )

describe("the service clients' error table (errors.ts), against a real server", () => {
  test('server response: body message, status as code, body as details', async () => {
    await rec.rules({ path: '/api/v2/wallet/address', status: 400, message: 'Invalid network' })
    const error = await caught(client().wallet.address({ network: 'nope' }))
    expect(error).toBeInstanceOf(SdkError)
    expect({ message: error.message, code: error.code, details: error.details }).toEqual({
      message: 'Invalid network',
      code: '400',
      details: { status: 400, message: 'Invalid network', data: null },
    })
  })

  test('server response without a message: An error occurred', async () => {
    await rec.rules({ path: '/api/v2/wallet/address', status: 502, envelope: false, body: { error: 'upstream' } })
    const error = await caught(client().wallet.address({ network: 'local-1' }))
    expect([error.message, error.code, error.details]).toEqual(['An error occurred', '502', { error: 'upstream' }])
  })

  test('server response with a non-JSON body keeps the text as details', async () => {
    await rec.rules({ path: '/api/v2/wallet/address', status: 503, raw: 'Service Unavailable' })
    const error = await caught(client().wallet.address({ network: 'local-1' }))
    expect([error.message, error.code, error.details]).toEqual(['An error occurred', '503', 'Service Unavailable'])
  })

  test('connection refused: No response received from server', async () => {
    const dead = await rec.deadUrl()
    const error = await caught(createClient({ baseUrls: { wallet: `${dead}/api/v2` } }).wallet.address({ network: 'x' }))
    expect([error.message, error.code, error.details]).toEqual(['No response received from server', 'NO_RESPONSE', undefined])
  })

  test('connection dropped without an answer: NO_RESPONSE', async () => {
    await rec.rules({ path: '/api/v2/wallet/address', destroy: true })
    const error = await caught(client().wallet.address({ network: 'local-1' }))
    expect([error.message, error.code]).toEqual(['No response received from server', 'NO_RESPONSE'])
    // Chromium's network stack retries a request whose connection dropped before any answer
    // (measured: 5 attempts); Node's fetch sends it once. The sdk itself never retries.
    const sent = (await rec.requests()).length
    if (typeof window === 'undefined') expect(sent).toBe(1)
    else expect(sent).toBeGreaterThanOrEqual(1)
  })

  test('abort: the call stops at once, with the abort as its message and ABORT_ERR', async () => {
    await rec.rules({ path: '/api/v2/wallet/address', delayMs: 3000, body: { address: '0x1' } })
    const controller = new AbortController()
    const started = Date.now()
    const pending = caught(client().wallet.address({ network: 'local-1' }, { signal: controller.signal }))
    setTimeout(() => controller.abort(), 50)
    const error = await pending
    expect(Date.now() - started).toBeLessThan(2000)
    expect(error.code).toBe('ABORT_ERR')
    expect(error.message).toMatch(/abort/i)
  })

  test('abort with a reason of its own keeps that reason', async () => {
    await rec.rules({ path: '/api/v2/wallet/address', delayMs: 3000, body: {} })
    const controller = new AbortController()
    const pending = caught(client().wallet.address({ network: 'local-1' }, { signal: controller.signal }))
    setTimeout(() => controller.abort(Object.assign(new Error('user left'), { code: 'LEFT' })), 50)
    const error = await pending
    expect([error.message, error.code]).toEqual(['user left', 'LEFT'])
  })

  test('bad JSON in an OK answer: the parser message, UNKNOWN_ERROR', async () => {
    await rec.rules({ path: '/api/v2/wallet/address', status: 200, raw: '{"data": nope' })
    const error = await caught(client().wallet.address({ network: 'local-1' }))
    expect(error.code).toBe('UNKNOWN_ERROR')
    expect(error.message).toMatch(/JSON/)
    expect(error.cause).toBeInstanceOf(SyntaxError)
  })

  test('request setup failure: its own message, REQUEST_SETUP_ERROR, nothing sent', async () => {
    const error = await caught(createClient({ baseUrls: { wallet: 'not a url' } }).wallet.address({ network: 'x' }))
    expect(error.code).toBe('REQUEST_SETUP_ERROR')
    expect(error.message).toMatch(/url/i)
    const bigint = await caught(request({ fetch, baseUrl: rec.base, method: 'POST', path: '/x', body: { kind: 'json', value: { n: 1n } } }))
    expect(bigint.code).toBe('REQUEST_SETUP_ERROR')
    expect(bigint.message).toMatch(/BigInt/i)
    expect(await rec.requests()).toHaveLength(0)
  })

  test('a signing failure is a setup error too: Invalid JSON input', async () => {
    const error = await caught(
      request({
        fetch,
        baseUrl: rec.base,
        method: 'POST',
        path: '/x',
        sign: async () => {
          await signSmartAccountRequest({ clientSecret: 's', method: 'POST', path: '/x', body: '{not json' })
          return {}
        },
      }),
    )
    expect(error.code).toBe('REQUEST_SETUP_ERROR')
    expect(error.message).toMatch(/^Invalid JSON input: /)
    expect(await rec.requests()).toHaveLength(0)
  })

  test.each([
    [new Error('boom'), 'boom', 'UNKNOWN_ERROR'],
    [Object.assign(new Error('coded'), { code: 'E_CODED' }), 'coded', 'E_CODED'],
    [Object.assign(new Error(''), { code: 42 }), 'An unknown error occurred', '42'],
    ['a string', 'An unknown error occurred', 'UNKNOWN_ERROR'],
    [undefined, 'An unknown error occurred', 'UNKNOWN_ERROR'],
  ])('other: %s → message and code', (input, message, code) => {
    const error = normalizeError(input)
    expect([error.message, error.code, error.details]).toEqual([message, code, undefined])
  })

  test('an SdkError passes through unchanged', () => {
    const original = new SdkError('kept', { code: 'KEEP', details: { a: 1 } })
    expect(normalizeError(original)).toBe(original)
  })
})
