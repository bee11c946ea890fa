import { describe, expect, test, vi } from 'vitest'
import { Hono } from 'hono'
import { HttpError, controlCharacterIn, everyAnswer, notFound, onError, refuseControlTextIn } from './exchange.ts'

// The one text check (sandbox/app.ts runs it on every path, query and body): control characters and
// unpaired surrogates are refused, naming where; ordinary text, line breaks and emoji are not.

describe('controlCharacterIn', () => {
  test.each([
    ['a\u0000b', 'U+0000'],
    ['\u0001', 'U+0001'],
    ['\u000b', 'U+000B'],
    ['\u001b[31m', 'U+001B'],
    ['\u007f', 'U+007F'],
    ['\u0085', 'U+0085'],
    ['\u009f', 'U+009F'],
    ['x\ud800', 'an unpaired surrogate U+D800'],
    ['\udfffy', 'an unpaired surrogate U+DFFF'],
    ['\ud83d\ud83d\ude00', 'an unpaired surrogate U+D83D'],
  ])('%j is refused (%s)', (text, found) => {
    expect(controlCharacterIn(text)).toBe(found)
  })

  test.each([
    'someone@example.com',
    'Sign in to example.com\nNonce: 1\r\n\tIssued At: now',
    'Terima kasih, Budi — ¥100 · ü',
    'emoji \ud83d\ude00 and 𝔘',
    '\u00a0non-breaking, \u200b zero width',
    '',
  ])('%j is fine', (text) => {
    expect(controlCharacterIn(text)).toBeUndefined()
  })
})

describe('refuseControlTextIn', () => {
  const refusal = (value: unknown) => {
    try {
      refuseControlTextIn(value)
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError)
      return [(error as HttpError).status, (error as HttpError).message]
    }
    return undefined
  }

  test('names the field, however deep', () => {
    expect(refusal({ email: 'a\u0000@b.co' })).toEqual([400, 'email must not contain control characters (found U+0000)'])
    expect(refusal({ transaction: { to: '0x\u0001' } })).toEqual([400, 'transaction.to must not contain control characters (found U+0001)'])
    expect(refusal({ tokenAddresses: ['0x1', '\ud800'] })).toEqual([
      400,
      'tokenAddresses[1] must not contain control characters (found an unpaired surrogate U+D800)',
    ])
    expect(refusal({ 'a\u0000': 1 })).toEqual([400, 'A field name in body must not contain control characters (found U+0000)'])
    expect(refusal('\u0000')).toEqual([400, 'body must not contain control characters (found U+0000)'])
  })

  test('passes ordinary values, and a body nested deeper than the stack', () => {
    expect(refusal({ message: 'line\nline', n: 1, list: [null, true, { x: 'ok' }] })).toBeUndefined()
    let deep: unknown = 'ok'
    for (let i = 0; i < 200_000; i++) deep = [deep]
    expect(refusal(deep)).toBeUndefined()
  })
})

describe('everyAnswer', () => {
  test('every answer says nosniff (a success, an HttpError, a route that is not there), and with log each request is logged once', async () => {
    const logged: string[] = []
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line))
    try {
      const app = new Hono()
      app.onError(onError)
      app.notFound(notFound)
      app.use('*', everyAnswer(true))
      app.get('/fine', (c) => c.text('ok'))
      app.get('/refused', () => {
        throw new HttpError(403, 'No')
      })
      const answers = await Promise.all(['/fine', '/refused', '/missing'].map((path) => app.request(path)))
      expect(answers.map((r) => [r.status, r.headers.get('x-content-type-options')])).toEqual([
        [200, 'nosniff'],
        [403, 'nosniff'],
        [404, 'nosniff'],
      ])
      expect(logged.map((line) => line.replace(/\d+ms$/, 'Nms'))).toEqual(['GET /fine 200 Nms', 'GET /refused 403 Nms', 'GET /missing 404 Nms'])
      logged.length = 0
      const quiet = new Hono().use('*', everyAnswer(false)).get('/fine', (c) => c.text('ok'))
      expect((await quiet.request('/fine')).headers.get('x-content-type-options')).toBe('nosniff')
      expect(logged).toEqual([])
    } finally {
      spy.mockRestore()
    }
  })
})
