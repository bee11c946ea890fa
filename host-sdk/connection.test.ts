// @vitest-environment happy-dom
import { connect, WindowMessenger } from 'penpal'
import { afterEach, describe, expect, test } from 'vitest'
import { ErrorCode, negotiate, serve, widgetChecks, type HostMethods, type RpcRequest } from '../bridge/index.ts'
import { connectWidget, type ConnectOptions, type Frame } from './connection.ts'
import { windowPair } from './windows.fixture.ts'

/**
 * The host's own Penpal-protocol channel (channel.ts + connection.ts) against the real Penpal 7
 * library on the widget side, with the bridge's real `serve` and checks on both ends.
 */
const hostOrigin = 'http://host.test'
const providerOrigin = 'http://provider.test'
const cleanup: (() => void)[] = []
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn()
})

type Widget = { request: (r: RpcRequest) => unknown; hello?: typeof negotiate }

/** Starts a Penpal child in the "frame", as widget/bridge.ts does; returns the host methods it sees. */
function startWidget(pair: ReturnType<typeof windowPair>, widget: Widget) {
  const handlers = {
    hello: widget.hello ?? negotiate,
    request: widget.request,
    open: () => null,
    close: () => null,
    disconnect: () => null,
    setWallets: () => null,
  }
  const child = connect<HostMethods>({
    messenger: new WindowMessenger({ remoteWindow: pair.host, allowedOrigins: [hostOrigin] }),
    methods: serve(widgetChecks, handlers),
  })
  cleanup.push(() => child.destroy())
  return child
}

function startHost(pair: ReturnType<typeof windowPair>, options: Partial<ConnectOptions> = {}) {
  const host = connectWidget({
    frame: { element: { contentWindow: pair.frame } } as unknown as Frame,
    providerOrigin,
    handshakeTimeout: 1000,
    diagnose: () => 'Check the CSP.',
    host: {
      setVisible: () => null,
      emit: () => null,
      connectExternal: () => ({ accounts: [], chainId: '0x1' }),
      openUrl: () => null,
    },
    ...options,
  })
  cleanup.push(() => host.destroy())
  return host
}

const echo: Widget['request'] = (r) => r.method

/** A frame whose hello never answers (its document goes away first): resolves once the host has asked it. */
async function stuckWidget(pair: ReturnType<typeof windowPair>, answer: string) {
  let asked!: () => void
  const helloAsked = new Promise<void>((r) => (asked = r))
  const hello = () => {
    asked()
    return new Promise(() => {})
  }
  const widget = startWidget(pair, { request: () => answer, hello: hello as unknown as typeof negotiate })
  await helloAsked
  return widget
}

describe('host channel ⇄ Penpal child', () => {
  test('a call made before the frame exists is queued and answered once it shakes hands', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    let ready = 0
    const host = startHost(pair, { ready: () => ready++ })
    const answer = host.call('request', [{ method: 'eth_chainId' }])
    await new Promise((r) => setTimeout(r, 50))
    startWidget(pair, { request: () => '0x7a69' })
    expect(await answer).toEqual({ result: '0x7a69' })
    expect(ready).toBe(1)
  })

  test('the widget calls the host, and the host checks those calls like any input', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    const shown: boolean[] = []
    const host = startHost(pair, { host: { setVisible: (v) => void shown.push(v), emit: () => null, connectExternal: () => null, openUrl: () => null } })
    const child = startWidget(pair, { request: echo })
    expect(await host.call('request', [{ method: 'eth_accounts' }])).toEqual({ result: 'eth_accounts' })
    const remote = await child.promise
    expect(await remote.setVisible(true)).toEqual({ result: null })
    expect(await remote.setVisible('yes' as never)).toMatchObject({ error: { code: ErrorCode.invalidParams } })
    expect(await (remote as unknown as { steal(): Promise<unknown> }).steal()).toMatchObject({ error: { code: ErrorCode.unsupportedMethod } })
    expect(shown).toEqual([true])
  })

  test('a handshake that never completes fails every call with 4900 and the diagnosis', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    const host = startHost(pair, { handshakeTimeout: 100 })
    expect(await host.call('request', [{ method: 'eth_chainId' }])).toEqual({
      error: { code: ErrorCode.disconnected, message: 'Wallet frame did not connect within 100 ms. Check the CSP.' },
    })
  })

  test('a widget that refuses the hello (say, the app is switched off) fails every call with its reason', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    const host = startHost(pair)
    startWidget(pair, {
      request: echo,
      hello: () => {
        throw { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' }
      },
    })
    const refused = { error: { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' } }
    expect(await host.call('request', [{ method: 'eth_chainId' }])).toEqual(refused)
    expect(await host.call('open', ['connect'])).toEqual(refused)
  })

  test('the frame reloading rejects calls in flight with 4900; later calls reach the new frame', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    let ready = 0
    const host = startHost(pair, { ready: () => ready++ })
    const first = startWidget(pair, { request: (r) => (r.method === 'eth_requestAccounts' ? new Promise(() => {}) : 'old') })
    expect(await host.call('request', [{ method: 'eth_chainId' }])).toEqual({ result: 'old' })
    const waiting = host.call('request', [{ method: 'eth_requestAccounts' }])

    first.destroy() // the old document goes away without a word…
    startWidget(pair, { request: () => 'new' }) // …and the reloaded one says SYN with a new id
    expect(await waiting).toEqual({
      error: { code: ErrorCode.disconnected, message: 'The wallet frame reloaded: the request was cancelled, please retry' },
    })
    expect(await host.call('request', [{ method: 'eth_chainId' }])).toEqual({ result: 'new' })
    expect(ready).toBe(2)
  })

  test('a frame reloading while the hello is in flight: a call queued before waits for the new frame, and the old hello, cancelled, does not fail it', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    let ready = 0
    const host = startHost(pair, { ready: () => ready++ })
    const first = await stuckWidget(pair, 'old')
    const queued = host.call('request', [{ method: 'eth_chainId' }])
    first.destroy()
    startWidget(pair, { request: () => 'new' })
    expect(await queued).toEqual({ result: 'new' })
    expect(await host.call('request', [{ method: 'eth_chainId' }])).toEqual({ result: 'new' })
    expect(ready).toBe(1)
  })

  test('two reloads in a row, each with its hello in flight: the queued call waits for the third frame, which alone is ready', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    let ready = 0
    const host = startHost(pair, { ready: () => ready++ })
    const queued = host.call('request', [{ method: 'eth_chainId' }])
    for (const name of ['first', 'second']) {
      const stale = await stuckWidget(pair, name)
      stale.destroy()
    }
    startWidget(pair, { request: () => 'third' })
    expect(await queued).toEqual({ result: 'third' })
    expect(ready).toBe(1)
  })

  test('a frame that reloads after the handshake timed out is used: calls made after it reach the new frame', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    const host = startHost(pair, { handshakeTimeout: 100 })
    const stuck = await stuckWidget(pair, 'old')
    expect(await host.call('request', [{ method: 'eth_chainId' }])).toMatchObject({ error: { code: ErrorCode.disconnected } })
    stuck.destroy()
    // Once the reloaded frame has shaken hands (the host hears of a reload only by its handshake).
    await startWidget(pair, { request: () => 'new' }).promise
    expect(await host.call('request', [{ method: 'eth_chainId' }])).toEqual({ result: 'new' })
  })

  test('each call has its own timeout', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    const host = startHost(pair)
    startWidget(pair, { request: () => new Promise(() => {}) })
    expect(await host.call('request', [{ method: 'eth_getBalance' }], 50)).toEqual({
      error: { code: ErrorCode.disconnected, message: 'The wallet frame did not answer request within 50 ms' },
    })
  })

  test('handshake messages from another window or origin are ignored', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    const host = startHost(pair, { handshakeTimeout: 200 })
    // Same origin, wrong window; and a window posting a SYN with another origin.
    pair.stranger(providerOrigin, { namespace: 'penpal', type: 'SYN', participantId: 'zzzz' })
    pair.stranger('http://evil.test', { namespace: 'penpal', type: 'SYN', participantId: 'zzzz' })
    expect(await host.call('request', [{ method: 'eth_chainId' }])).toMatchObject({ error: { code: ErrorCode.disconnected } })
  })

  test('destroy() answers queued calls with 4900', async () => {
    const pair = windowPair(hostOrigin, providerOrigin)
    const host = startHost(pair)
    const queued = host.call('request', [{ method: 'eth_chainId' }])
    host.destroy()
    expect(await queued).toEqual({ error: { code: ErrorCode.disconnected, message: 'Wallet kit destroyed' } })
  })
})
