// @vitest-environment happy-dom
import { createRoot } from 'react-dom/client'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { AppConfig } from '../sdk/index.ts'
import { createConfirmations } from './confirmation.ts'
import type { WidgetContext } from './context.ts'
import { preloadAll, whenQuiet } from './lazy-module.ts'
import { mountUi } from './ui.tsx'
import { testWallet } from './wallet.fixture.ts'

// The first render of the app waits for a pause in the page's calls, unless a modal is wanted.
vi.mock('react-dom/client', async (original) => {
  const client = await original<typeof import('react-dom/client')>()
  return { ...client, createRoot: vi.fn(client.createRoot) }
})
vi.mock('./lazy-module.ts', async (original) => ({
  ...(await original<typeof import('./lazy-module.ts')>()),
  whenQuiet: vi.fn(),
  preloadAll: vi.fn(),
}))

beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>'
  vi.mocked(createRoot).mockClear()
  vi.mocked(whenQuiet).mockReset()
  vi.mocked(preloadAll).mockClear()
})
afterEach(() => {
  document.body.innerHTML = ''
})

async function context(): Promise<WidgetContext> {
  const t = testWallet()
  await t.wallet.restore()
  return {
    wallet: t.wallet,
    confirmations: createConfirmations(t.wallet),
    client: {} as never,
    config: {
      showPoweredBy: true,
      logoUrl: null,
      useEmailLogin: true,
      google: { enabled: false, clientId: null },
      apple: { enabled: false, clientId: null, redirectUri: null },
      telegram: { enabled: false, botId: null, botUsername: null },
      whatsapp: { enabled: false },
    } as AppConfig,
    rpc: () => ({}) as never,
    locale: 'en',
    persistent: true,
    walletConnect: null,
    presentation: 'frame',
    mode: 'frame',
    secure: null,
  }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

test('with no modal wanted, the app renders once the bridge is quiet; the other pages are fetched after', async () => {
  const value = await context()
  let mounted = false
  void mountUi(value).then(() => (mounted = true))
  await vi.waitFor(() => expect(whenQuiet).toHaveBeenCalledTimes(1))
  await settled()
  expect(createRoot).not.toHaveBeenCalled()
  expect(preloadAll).not.toHaveBeenCalled()
  vi.mocked(whenQuiet).mock.calls[0]![0]()
  await vi.waitFor(() => expect(mounted).toBe(true))
  expect(createRoot).toHaveBeenCalledTimes(1)
  expect(preloadAll).toHaveBeenCalledTimes(1)
})

test('a modal asked for while the page is still calling renders at once', async () => {
  const value = await context()
  let mounted = false
  void mountUi(value).then(() => (mounted = true))
  await vi.waitFor(() => expect(whenQuiet).toHaveBeenCalledTimes(1))
  value.wallet.open('connect')
  await vi.waitFor(() => expect(mounted).toBe(true))
  expect(createRoot).toHaveBeenCalledTimes(1)
})

test('a modal already open when the UI arrives renders at once, without waiting for a pause', async () => {
  const value = await context()
  value.wallet.open('connect')
  await mountUi(value)
  expect(createRoot).toHaveBeenCalledTimes(1)
  expect(whenQuiet).not.toHaveBeenCalled()
})
