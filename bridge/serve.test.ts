import { describe, expect, test } from 'vitest'
import { ErrorCode } from './error-classes.ts'
import { checkCall, checkExternalConnection, dispatch, hostChecks, isIdentityNonce, screenWallets, serve, widgetChecks } from './serve.ts'

describe('serve: every incoming call is checked before a handler runs', () => {
  const ran: string[] = []
  const widget = serve(widgetChecks, {
    hello: (h: { protocol: number }) => ({ protocol: h.protocol }),
    request: (r: { method: string }) => {
      ran.push(r.method)
      return '0x7a69'
    },
    open: () => {
      ran.push('open')
    },
    close: () => {
      ran.push('close')
    },
  })

  test('good calls answer { result }', async () => {
    await expect(widget.request({ method: 'eth_chainId' })).resolves.toEqual({ result: '0x7a69' })
    await expect(widget.open('connect')).resolves.toEqual({ result: null })
    await expect(widget.close()).resolves.toEqual({ result: null })
    expect(ran).toEqual(['eth_chainId', 'open', 'close'])
  })

  test.each([
    ['request', [], 'expected 1 argument, got 0'],
    ['request', [{ method: 'a' }, 'extra'], 'expected 1 argument, got 2'],
    ['request', [{ params: [] }], 'method must be a non-empty string'],
    ['open', ['settings'], 'unknown view: "settings"'],
    ['open', [{ toString: (): string => 'connect' }], 'unknown view: object'],
    ['close', [true], 'expected 0 arguments, got 1'],
    ['hello', [{ protocol: '1' }], 'hello must carry an integer protocol version'],
  ] as const)('%s(%j) → -32602 (%s)', async (name, args, reason) => {
    const before = ran.length
    const answer = await (widget[name] as (...a: unknown[]) => Promise<unknown>)(...args)
    expect(answer).toEqual({ error: { code: ErrorCode.invalidParams, message: `Invalid arguments for ${name}: ${reason}` } })
    expect(ran.length).toBe(before)
  })

  test('host methods are checked too', async () => {
    const host = serve(hostChecks, { setVisible: () => undefined, emit: () => undefined })
    await expect(host.setVisible('yes' as never)).resolves.toMatchObject({ error: { code: -32602 } })
    await expect(host.emit('hacked' as never, 1)).resolves.toMatchObject({ error: { code: -32602 } })
    await expect(host.emit('accountsChanged', [])).resolves.toEqual({ result: null })
  })

  test('unknown bridge methods answer 4200, also names from Object.prototype', async () => {
    for (const name of ['steal', 'toString', '__proto__', 'constructor']) {
      await expect(dispatch(widgetChecks, {}, name, [])).resolves.toEqual({
        error: { code: ErrorCode.unsupportedMethod, message: `Unsupported bridge method: ${name}` },
      })
    }
  })

  test('a throwing handler answers its code, or -32603 without one; nothing is thrown across', async () => {
    const failing = serve(widgetChecks, {
      hello: () => {
        throw { code: 4900, message: 'Protocol version mismatch' }
      },
      request: () => {
        throw new TypeError('boom')
      },
      open: () => Promise.reject('nope'),
      close: () => {
        throw null
      },
    })
    await expect(failing.hello({ protocol: 1 })).resolves.toEqual({ error: { code: 4900, message: 'Protocol version mismatch' } })
    await expect(failing.request({ method: 'x' })).resolves.toEqual({ error: { code: -32603, message: 'boom' } })
    await expect(failing.open('connect')).resolves.toEqual({ error: { code: -32603, message: 'nope' } })
    await expect(failing.close()).resolves.toEqual({ error: { code: -32603, message: 'Internal error' } })
  })
})

describe('wallet list, external connection and URLs from the other side', () => {
  const wallet = { id: 'io.metamask', name: 'MetaMask', icon: 'data:image/svg+xml,<svg/>', connector: 'injected', installed: true }
  const check = (name: string, args: unknown[]) => checkCall({ ...widgetChecks, ...hostChecks }, name, args)?.error.message

  test('good shapes pass', () => {
    expect(check('setWallets', [[wallet, { ...wallet, id: 'wc', connector: 'walletconnect', installed: false }]])).toBeUndefined()
    expect(check('connectExternal', ['io.metamask'])).toBeUndefined()
    expect(check('openUrl', ['https://example.com/onramp?x=1', '_blank'])).toBeUndefined()
    expect(check('openUrl', ['metamask://wc?uri=abc', '_top'])).toBeUndefined()
  })

  test.each([
    ['setWallets', ['nope'], 'wallets must be an array'],
    ['setWallets', [[{ ...wallet, icon: 'javascript:alert(1)' }]], 'wallets[0].icon must be a data:image URI'],
    ['setWallets', [[{ ...wallet, icon: 'https://tracker.example/pixel.png' }]], 'wallets[0].icon must be a data:image URI'],
    ['setWallets', [[{ ...wallet, connector: 'evil' }]], 'wallets[0].connector is unknown'],
    ['setWallets', [[{ ...wallet, installed: 'yes' }]], 'wallets[0].installed must be a boolean'],
    ['setWallets', [Array.from({ length: 51 }, () => wallet)], 'at most 50 wallets'],
    ['connectExternal', [''], 'walletId must be a non-empty string'],
    ['openUrl', ['javascript:alert(1)', '_top'], 'scheme javascript: is not allowed'],
    ['openUrl', ['JaVaScRiPt:alert(1)', '_top'], 'scheme javascript: is not allowed'],
    ['openUrl', [' javascript:alert(1)', '_top'], 'scheme javascript: is not allowed'],
    ['openUrl', ['data:text/html,hi', '_blank'], 'scheme data: is not allowed'],
    ['openUrl', ['intent://x#Intent;package=com.evil;end', '_top'], 'scheme intent: is not allowed'],
    ['openUrl', ['http://evil.example/', '_blank'], 'http: is for loopback only'],
    ['openUrl', ['/relative', '_blank'], 'url must be absolute'],
    ['openUrl', ['https://example.com', '_self'], 'target must be _blank or _top'],
  ])('%s(%j) is refused', (name, args, reason) => {
    expect(check(name, args)).toBe(`Invalid arguments for ${name}: ${reason}`)
  })

  test.each([
    [{ accounts: ['0x0000000000000000000000000000000000000001'], chainId: '0x7a69' }, undefined],
    [{ accounts: [], chainId: '0x1' }, 'accounts must be a non-empty list of addresses'],
    [{ accounts: ['0xnope'], chainId: '0x1' }, 'accounts must be a non-empty list of addresses'],
    [{ accounts: ['0x0000000000000000000000000000000000000001'], chainId: 1 }, 'chainId must be a hex string'],
    ['0x1', 'connection must be an object'],
  ])('external connection %j → %s', (value, reason) => {
    expect(checkExternalConnection(value)).toBe(reason)
  })
})

describe('screenWallets: no wallet from the host takes the name of a sign-in method', () => {
  const wallet = (name: string) => ({ id: name, name, icon: 'data:image/svg+xml,<svg/>', connector: 'injected', installed: true }) as const

  test("impostors are refused by name, the page's real wallets are still shown", () => {
    expect(screenWallets([wallet('MetaMask'), wallet('Gооgle'), wallet('Continue with Apple'), wallet('Rabby')])).toEqual({
      shown: [wallet('MetaMask'), wallet('Rabby')],
      refused: ['wallet "Gооgle" takes the name of the sign-in method Google', 'wallet "Continue with Apple" takes the name of the sign-in method Apple'],
    })
  })

  test('an honest list passes whole', () => {
    expect(screenWallets([wallet('Test Wallet'), wallet('Browser Wallet')])).toEqual({ shown: [wallet('Test Wallet'), wallet('Browser Wallet')], refused: [] })
  })
})

describe('identityToken: the nonce a page binds a token to', () => {
  /** The frame's check of a page's identity-token call (the provider takes the same nonces and no others). */
  const checkNonce = (...args: unknown[]) => checkCall(widgetChecks, 'identityToken', args)?.error

  test('a nonce of 8 to 128 visible ASCII characters, or none, passes', () => {
    for (const nonce of [undefined, 'abcdefgh', 'x'.repeat(128), '!~"#$%&()*+,-./0123456789:;<=>?@[\\]^_`{|}'])
      expect(checkNonce(nonce), String(nonce)).toBeUndefined()
  })

  test('anything else is -32602 before any handler runs: short, long, blank, control, non-ASCII, not a string, extra arguments', () => {
    const bad: unknown[] = [
      '',
      'abcdefg',
      'x'.repeat(129),
      'x'.repeat(100_000),
      'abcd efgh',
      'abcdefgh\n',
      'abcd\u0000efgh',
      'abcdéfghij',
      'abcd\u200befgh',
      'abcd\u202eefgh',
      12345678,
      null,
      ['abcdefghij'],
      { toString: () => 'abcdefghij' },
      new String('abcdefghij'),
    ]
    for (const nonce of bad) expect(checkNonce(nonce), JSON.stringify(String(nonce)).slice(0, 40)).toMatchObject({ code: -32602 })
    expect(checkNonce()).toMatchObject({ code: -32602 })
    expect(checkNonce('abcdefgh', 'more')).toMatchObject({ code: -32602 })
    expect(isIdentityNonce(['abcdefghij'])).toBe(false)
  })
})
