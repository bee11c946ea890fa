import { stringToHex } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import type { FrameParams } from '../../bridge/frame-url.ts'
import { createConfirmations } from '../confirmation.ts'
import type { WidgetClient } from '../service-client.ts'
import { createStore } from '../store.ts'
import { alice, testWallet, setUi } from '../wallet.fixture.ts'
import type { SecureState } from './secure-handle.ts'
import type { SecureWindowHandlers } from './secure-window.ts'

// The host page drives the frame over the bridge while a secure window is open. The channel is played
// as the server keeps it (sandbox/services/popup/channel.ts): at most `messagesPerSide` (64) messages
// per side, then 429 'This channel is full'. FAILS while the hole exists.

const messagesPerSide = 64
const toWindow: Record<string, unknown>[] = []
const server = {
  post(m: Record<string, unknown>) {
    if (toWindow.length >= messagesPerSide) throw new Error('The secure window channel refused a message (429)')
    toWindow.push(JSON.parse(JSON.stringify(m)) as Record<string, unknown>)
  },
}
const id = 'z'.repeat(43)
const opened: { handlers: SecureWindowHandlers }[] = []
vi.mock('./secure-window.ts', () => ({
  openSecureWindow: (_params: FrameParams, handlers: SecureWindowHandlers) => {
    opened.push({ handlers })
    return {
      channel: { id, post: async (m: Record<string, unknown>) => server.post(m), postOnUnload() {}, listen: () => () => {} },
      close() {},
    }
  },
}))
const { createSecureFlows } = await import('./frame-flows.ts')

const params = {
  appId: 'demo',
  env: 'sandbox',
  hostOrigin: 'http://127.0.0.1:5173',
  theme: 'dark',
  locale: 'en',
  chains: [],
  mode: 'frame',
  secureWindow: false,
} as FrameParams

describe('the host page cannot cut the frame off from its secure window', () => {
  test('after the host calls setWallets 100 times, the window still hears that the request was answered', async () => {
    const t = testWallet({ session: alice })
    await t.wallet.restore()
    const confirmations = createConfirmations(t.wallet)
    const state = createStore<SecureState>({ status: 'idle', purpose: null })
    const client = { auth: { adopt: async (r: unknown) => r } } as unknown as WidgetClient
    const flows = createSecureFlows({ params, wallet: t.wallet, confirmations, client, state })
    const answer = confirmations.request({
      kind: 'message',
      payload: { from: alice.address, chainId: 31337, message: stringToHex('hi') },
      run: async () => '0xsig',
      rejected: 'Message signing rejected by user',
      failed: 'Failed to sign message',
    })
    flows.open('confirm')
    // The bridge's setWallets handler does exactly this (widget/bridge.ts); the host may call it at will.
    for (let i = 0; i < 100; i++) setUi(t.wallet, { wallets: [] })
    await new Promise((r) => setTimeout(r, 10))

    // The user confirms in the window.
    opened[0]!.handlers.message({ type: 'decision', id: t.wallet.ui.get().confirmation!.id, approve: true })
    expect(await answer).toBe('0xsig')
    await new Promise((r) => setTimeout(r, 50))
    const seen = toWindow as { type: string }[]
    expect(
      seen.some((m) => m.type === 'done'),
      `the window got ${seen.length} messages, all but the first few identical 'state' copies, and never 'done': it stays open on an answered request`,
    ).toBe(true)
  })
})
