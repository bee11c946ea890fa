import { stringToHex } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import type { FrameParams } from '../../bridge/frame-url.ts'
import { createConfirmations } from '../confirmation.ts'
import type { WidgetClient } from '../service-client.ts'
import { createStore } from '../store.ts'
import { alice, testWallet } from '../wallet.fixture.ts'
import type { PopupMessage } from '../../sdk/popup-channel.ts'
import type { SecureState } from './secure-handle.ts'
import type { SecureWindowHandlers } from './secure-window.ts'

/** The window itself is played here: what the frame posts to it, and its messages and closing. */
const opened: { handlers: SecureWindowHandlers; posted: Record<string, unknown>[]; closed: boolean }[] = []
/** The service's answer to the next window's first post, its `open`: taken (null) or refused with this status. */
const service = { refusesOpen: null as number | null }
vi.mock('./secure-window.ts', () => ({
  openSecureWindow: (_params: FrameParams, handlers: SecureWindowHandlers) => {
    const win = { handlers, posted: [] as Record<string, unknown>[], closed: false }
    opened.push(win)
    const refuses = service.refusesOpen
    service.refusesOpen = null
    const post = async (m: Record<string, unknown>) => {
      if (refuses !== null && m.type === 'open') throw Object.assign(new Error('refused'), { status: refuses })
      win.posted.push(m)
    }
    return {
      channel: { id: 'x', post, postOnUnload() {}, listen: () => () => {} },
      close: () => {
        win.closed = true
      },
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

async function setup() {
  opened.length = 0
  const t = testWallet({ session: alice })
  await t.wallet.restore()
  const confirmations = createConfirmations(t.wallet)
  const state = createStore<SecureState>({ status: 'idle', purpose: null })
  const adopted: unknown[] = []
  const adopt = async (r: unknown) => {
    adopted.push(r)
    return r
  }
  const client = { auth: { adopt } } as unknown as WidgetClient
  const flows = createSecureFlows({ params, wallet: t.wallet, confirmations, client, state })
  const signed: string[] = []
  const ask = (text: string) =>
    confirmations
      .request({
        kind: 'message',
        payload: { from: alice.address, chainId: 31337, message: stringToHex(text) },
        run: async () => {
          signed.push(text)
          return `0xsig-${text}`
        },
        rejected: 'Message signing rejected by user',
        failed: 'Failed to sign message',
      })
      .catch((e: { code: number }) => e.code)
  return { ...t, flows, state, ask, signed, adopted, confirmations }
}

describe('the frame side of the secure window', () => {
  test('a decision applies only to the request it names; the window sees each state and is told when done', async () => {
    const { flows, wallet, ask, signed } = await setup()
    const first = ask('one')
    flows.open('confirm')
    const win = opened[0]!
    expect(win.posted[0]).toEqual({ type: 'open', purpose: 'confirm', hostOrigin: 'http://127.0.0.1:5173' })
    const shown = wallet.ui.get().confirmation!
    expect(win.posted.at(-1)).toMatchObject({ type: 'state', confirmation: { id: shown.id } })
    // A decision naming another (an older, a guessed) request does nothing.
    win.handlers.message({ type: 'decision', id: shown.id + 1, approve: true })
    // The channel's client already drops a decision whose id is not a number; the frame does not count on it.
    win.handlers.message({ type: 'decision', id: String(shown.id), approve: true } as unknown as PopupMessage)
    expect(signed).toEqual([])
    win.handlers.message({ type: 'decision', id: shown.id, approve: true })
    await vi.waitFor(() => expect(signed).toEqual(['one']))
    expect(await first).toBe('0xsig-one')
    await vi.waitFor(() => expect(win.posted.some((m) => m.type === 'done')).toBe(true))
  })

  test("while the frame asks a step-up for the request, the window's copy says so; then it no longer does", async () => {
    const { flows, ask, state } = await setup()
    void ask('three')
    flows.open('confirm')
    const win = opened[0]!
    const states = () => win.posted.filter((m) => m.type === 'state') as { confirmation: { askingStepUp?: true } }[]
    expect(states().at(-1)!.confirmation.askingStepUp).toBeUndefined()
    state.set({ askingStepUp: true })
    expect(states().at(-1)!.confirmation.askingStepUp).toBe(true)
    state.set({ askingStepUp: false })
    expect(states().at(-1)!.confirmation.askingStepUp).toBeUndefined()
    expect(states()).toHaveLength(3)
  })

  test('closing the window before deciding answers 4001; a second click while it is open opens nothing more', async () => {
    const { flows, ask, state } = await setup()
    const answer = ask('two')
    flows.open('confirm')
    flows.open('confirm')
    expect(opened).toHaveLength(1)
    expect(state.get()).toEqual({ status: 'open', purpose: 'confirm' })
    opened[0]!.handlers.closed()
    expect(await answer).toBe(4001)
    expect(state.get()).toEqual({ status: 'idle', purpose: null })
  })

  test('a blocked window leaves the request waiting and says so; a session message in a confirm window is ignored', async () => {
    const { flows, ask, state, wallet, adopted, confirmations } = await setup()
    const answer = ask('three')
    flows.open('confirm')
    opened[0]!.handlers.blocked()
    expect(state.get()).toEqual({ status: 'blocked', purpose: 'confirm' })
    expect(wallet.ui.get().confirmation).not.toBeNull()
    flows.open('confirm')
    opened[1]!.handlers.message({ type: 'session', result: { isWalletCreated: true, walletToken: 'w', refreshToken: 'r', addresses: [] } })
    expect(adopted).toEqual([])
    confirmations.reject()
    expect(await answer).toBe(4001)
  })

  test('a channel the service refuses (429) closes the blank window and says so; the request waits, and a retry opens a new window', async () => {
    const { flows, ask, state, wallet, signed } = await setup()
    const answer = ask('four')
    service.refusesOpen = 429
    flows.open('confirm')
    await vi.waitFor(() => expect(state.get()).toEqual({ status: 'failed', purpose: 'confirm' }))
    expect(opened[0]!.closed).toBe(true)
    // Nothing answered the dapp: the user may try again, or reject.
    expect(wallet.ui.get().confirmation).not.toBeNull()
    flows.open('confirm')
    expect(opened).toHaveLength(2)
    expect(state.get()).toEqual({ status: 'open', purpose: 'confirm' })
    const shown = wallet.ui.get().confirmation!
    opened[1]!.handlers.message({ type: 'decision', id: shown.id, approve: false })
    expect(await answer).toBe(4001)
    expect(signed).toEqual([])
  })

  test('sign-in: only a well-formed wallet login from the channel is kept', async () => {
    const { flows, adopted } = await setup()
    flows.open('login')
    const win = opened[0]!
    win.handlers.message({ type: 'session', result: { isWalletCreated: false, accessToken: 'a', refreshToken: 'r' } })
    win.handlers.message({ type: 'session', result: 'token' })
    win.handlers.message({ type: 'decision', id: 1, approve: true })
    expect(adopted).toEqual([])
    const login = { isWalletCreated: true, walletToken: 'w', refreshToken: 'r', addresses: [{ network: 'evm', address: alice.address }] }
    win.handlers.message({ type: 'session', result: login })
    expect(adopted).toEqual([login])
  })
})
