import { describe, expect, test } from 'vitest'
import { ErrorCode } from './errors.ts'
import { dispatch, serve } from './serve.ts'
import { checkRpcRequest, hostChecks, widgetChecks } from './validate.ts'

describe('checkRpcRequest', () => {
  test.each([
    [{ method: 'eth_chainId' }, undefined],
    [{ method: 'eth_call', params: [{ to: '0x' }, 'latest'] }, undefined],
    [{ method: 'wallet_switchEthereumChain', params: { chainId: '0x1' } }, undefined],
    [null, 'request must be an object'],
    ['eth_chainId', 'request must be an object'],
    [[{ method: 'eth_chainId' }], 'request must be an object'],
    [{}, 'method must be a non-empty string'],
    [{ method: '' }, 'method must be a non-empty string'],
    [{ method: 42 }, 'method must be a non-empty string'],
    [{ method: 'x'.repeat(129) }, 'method must be a non-empty string'],
    [{ method: 'eth_call', params: 'latest' }, 'params must be an array or an object'],
    [{ method: 'eth_call', params: null }, 'params must be an array or an object'],
  ])('%j → %s', (input, reason) => {
    expect(checkRpcRequest(input)).toBe(reason)
  })
})

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
