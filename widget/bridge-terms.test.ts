// @vitest-environment happy-dom
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ErrorCode, PROTOCOL_VERSION } from '../bridge/index.ts'
import { penpalPeer } from '../bridge/penpal-peer.fixture.ts'
import { serveHost, type Terms } from './bridge.ts'
import type { RpcContext } from './rpc/types.ts'

// The frame shakes hands from its first moments, before the app config is read: the page's hello
// waits for the config's terms, and a page the app turns down gets the reason on every call.
const hostOrigin = 'http://127.0.0.1:5173'
const host = penpalPeer({ role: 'host', origin: hostOrigin })
const frameParent = Object.getOwnPropertyDescriptor(window, 'parent')!
let setTerms: (terms: Terms) => void = () => {}
let contextAsked = false

beforeAll(() => {
  Object.defineProperty(window, 'parent', { value: host.window, configurable: true })
  const context = new Promise<RpcContext>(() => {})
  const then = context.then.bind(context)
  // Every use of the session goes through `then`: seen here, it must never happen.
  // biome-ignore lint/suspicious/noThenProperty: watching the one way the session can be read
  context.then = ((...args: Parameters<typeof then>) => {
    contextAsked = true
    return then(...args)
  }) as typeof context.then
  serveHost({ hostOrigin, terms: new Promise<Terms>((resolve) => (setTerms = resolve)), context })
})

afterAll(() => {
  host.close()
  Object.defineProperty(window, 'parent', frameParent)
})

test('the handshake completes before the config is read; hello then waits for its terms, and a refusal answers every call', async () => {
  await host.ready
  let settled = false
  const hello = host.call(['hello'], [{ protocol: PROTOCOL_VERSION }]).finally(() => (settled = true))
  await new Promise((resolve) => setTimeout(resolve, 30))
  expect(settled).toBe(false)

  const refusal = { code: ErrorCode.disconnected, message: `${hostOrigin} is not an allowed origin of app "demo"` }
  setTerms({ refusal, chains: [] })
  expect(await hello).toMatchObject({ value: { error: refusal } })
  for (const [name, args] of [
    ['request', [{ method: 'eth_chainId' }]],
    ['request', [{ method: 'eth_requestAccounts' }]],
    ['open', ['connect']],
    ['disconnect', []],
    ['identityToken', ['0123456789abcdef']],
  ] as const) {
    expect(await host.call([name], [...args]), name).toMatchObject({ value: { error: refusal } })
  }
  // Nothing reached the session: a page the app does not allow learns nothing but the reason.
  expect(contextAsked).toBe(false)
})
