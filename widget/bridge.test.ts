// @vitest-environment happy-dom
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { PROTOCOL_VERSION } from '../bridge/index.ts'
import { penpalPeer } from '../bridge/penpal-peer.fixture.ts'
import { serveHost } from './bridge.ts'
import { noteBridgeCall } from './lazy-module.ts'
import { testContext } from './rpc/context.fixture.ts'
import type { RpcContext } from './rpc/types.ts'

// The background fetch of the frame's other parts keeps out of the way of the page's calls: the
// bridge reports each one (lazy-module.ts).
vi.mock('./lazy-module.ts', async (original) => ({ ...(await original<typeof import('./lazy-module.ts')>()), noteBridgeCall: vi.fn() }))

const hostOrigin = 'http://127.0.0.1:5173'
const t = testContext()
const host = penpalPeer({ role: 'host', origin: hostOrigin })
const frameParent = Object.getOwnPropertyDescriptor(window, 'parent')!
let session: (ctx: RpcContext) => void = () => {}

beforeAll(async () => {
  Object.defineProperty(window, 'parent', { value: host.window, configurable: true })
  serveHost({ hostOrigin, admission: { chains: [31337] }, context: new Promise((resolve) => (session = resolve)) })
  await host.ready
})

afterAll(() => {
  host.close()
  Object.defineProperty(window, 'parent', frameParent)
})

test('the bridge reports every call from the page: on arrival, and again when one that waited for the session is answered', async () => {
  const noted = vi.mocked(noteBridgeCall)
  await host.call(['hello'], [{ protocol: PROTOCOL_VERSION }])
  expect(noted).toHaveBeenCalledTimes(1)
  const answer = host.call(['request'], [{ method: 'eth_chainId' }])
  await vi.waitFor(() => expect(noted).toHaveBeenCalledTimes(2))
  session(t.ctx)
  expect(await answer).toMatchObject({ value: { result: '0x7a69' } })
  expect(noted).toHaveBeenCalledTimes(3)
  await host.call(['close'], [])
  expect(noted).toHaveBeenCalledTimes(4)
})
