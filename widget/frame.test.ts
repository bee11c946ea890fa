// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { ErrorCode } from '../bridge/index.ts'
import { type AppConfig, appConfigElementId } from '../sdk/app-config.ts'
import type { Admission } from './bridge.ts'
import type { EarlyStart } from './early.ts'
import type { FrameParams } from './params.ts'
import type { RpcContext } from './rpc/types.ts'

// boot() (frame.ts) with its parts stood in for: when the page is admitted, and what a page that
// was admitted hears when the services fail. The parts themselves have their own tests.

const parts = vi.hoisted(() => ({
  served: [] as { hostOrigin: string; admission: Promise<Admission>; context: Promise<RpcContext> }[],
  openServices: vi.fn(),
  start: vi.fn(),
  /** How many times the UI's module (ui.tsx) was loaded: its code runs then. */
  uiLoads: 0,
}))
vi.mock('./bridge.ts', () => ({
  serveHost: (options: (typeof parts.served)[number]) => {
    parts.served.push(options)
    return { setVisible() {}, emit() {}, connectExternal: async () => ({}), openUrl() {} }
  },
}))
vi.mock('./core.ts', () => ({ openServices: parts.openServices, start: parts.start, chainRefusal: () => undefined }))
vi.mock('./secure/secure-handle.ts', () => ({ createSecureHandle: () => ({}) }))
vi.mock('./ui.tsx', () => {
  parts.uiLoads++
  return { mountUi: async () => {} }
})

const { boot } = await import('./frame.ts')

const host = 'https://dapp.example'
const config = {
  appId: 'demo',
  environment: 'development',
  allowedOrigins: [host],
  chains: [{ chainId: 1 }],
  isEmbeddedWalletEnabled: true,
} as unknown as AppConfig
const params = (fields: Partial<FrameParams> = {}) =>
  ({ appId: 'demo', env: 'sandbox', hostOrigin: host, chains: [1], locale: 'en', mode: 'frame', ...fields }) as FrameParams
const early = {} as EarlyStart

function writeIntoPage(value: object) {
  const block = document.createElement('script')
  block.type = 'application/json'
  block.id = appConfigElementId
  block.textContent = JSON.stringify(value)
  document.head.append(block)
}

/** Whether `promise` has settled once everything queued has run. */
async function state(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let seen: 'pending' | 'resolved' | 'rejected' = 'pending'
  promise.then(
    () => (seen = 'resolved'),
    () => (seen = 'rejected'),
  )
  await new Promise((resolve) => setTimeout(resolve, 10))
  return seen
}

beforeEach(() => {
  parts.served.length = 0
  parts.openServices.mockReset()
  parts.start.mockReset()
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => {
  document.getElementById(appConfigElementId)?.remove()
  vi.restoreAllMocks()
})

test('with the app config in its own page, the frame admits the page before storage is open, and answers its calls if the services then fail', async () => {
  writeIntoPage(config)
  let fail: (error: unknown) => void = () => {}
  parts.openServices.mockReturnValue(new Promise((_, reject) => (fail = reject)))
  const booted = boot(params(), early)
  const [served] = parts.served
  expect(await served!.admission).toEqual({ refusal: undefined, chains: [1] })
  // The services get the same copy the page was admitted on.
  expect(parts.openServices.mock.calls[0]![2]).toEqual(config)
  expect(await state(served!.context)).toBe('pending')
  fail(new Error('storage broke'))
  await booted
  await expect(served!.context).rejects.toEqual({ code: ErrorCode.disconnected, message: 'The wallet frame could not start: storage broke' })
})

test('a page admitted from its own copy gets an answer when the services find no app config', async () => {
  writeIntoPage(config)
  parts.openServices.mockResolvedValue(null)
  await boot(params(), early)
  await expect(parts.served[0]!.context).rejects.toMatchObject({ code: ErrorCode.disconnected })
})

test("a page the page's own copy does not allow is never admitted, and the frame opens nothing for it", async () => {
  writeIntoPage({ ...config, allowedOrigins: ['https://other.example'] })
  await boot(params(), early)
  expect(await state(parts.served[0]!.admission)).toBe('pending')
  expect(parts.openServices).not.toHaveBeenCalled()
})

test('without a copy in the page, the page is admitted only once the services have read the app config', async () => {
  let open: (services: unknown) => void = () => {}
  parts.openServices.mockReturnValue(new Promise((resolve) => (open = resolve)))
  parts.start.mockReturnValue(new Promise(() => {}))
  void boot(params(), early)
  const [served] = parts.served
  expect(await state(served!.admission)).toBe('pending')
  open({ owner: {}, client: {}, config, setChain() {} })
  expect(await served!.admission).toEqual({ refusal: undefined, chains: [1] })
})

test('a frame that cannot tell which page holds it serves nothing and opens nothing', async () => {
  writeIntoPage(config)
  await boot(params({ hostOrigin: null }), early)
  expect(parts.served).toHaveLength(0)
  expect(parts.openServices).not.toHaveBeenCalled()
})

test("the UI's code is not loaded while the core's context is pending (the page waits for its first answer), and is loaded once it is ready", async () => {
  // A fresh copy of the frame's modules: ui.tsx counts each time it is loaded.
  vi.resetModules()
  parts.uiLoads = 0
  const { boot } = await import('./frame.ts')
  writeIntoPage(config)
  let started: (ctx: unknown) => void = () => {}
  parts.openServices.mockResolvedValue({ owner: { persistent: true }, client: {}, config, setChain() {} })
  parts.start.mockReturnValue(new Promise((resolve) => (started = resolve)))
  void boot(params(), early)
  const [served] = parts.served
  expect(await state(served!.context)).toBe('pending')
  expect(parts.uiLoads).toBe(0)
  started({ wallet: {}, confirmations: {} })
  await served!.context
  await vi.waitFor(() => expect(parts.uiLoads).toBe(1))
})

test('a frame whose services fail before the page has called anything leaves no unhandled rejection behind', async () => {
  const unhandled: unknown[] = []
  const listen = (reason: unknown) => void unhandled.push(reason)
  process.on('unhandledRejection', listen)
  try {
    writeIntoPage(config)
    parts.openServices.mockResolvedValue(null)
    await boot(params(), early)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(unhandled).toEqual([])
    // The failure is still said, once, in the console.
    expect(console.error).toHaveBeenCalledWith('wallet-kit: the wallet frame could not start:', expect.any(Error))
  } finally {
    process.off('unhandledRejection', listen)
  }
})
