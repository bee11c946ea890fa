// @vitest-environment happy-dom
import { act, cleanup, render, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, expect, test } from 'vitest'
import type { AppConfig } from '../sdk/index.ts'
import { App } from './App.tsx'
import { confirmText } from './confirm/confirm-text.ts'
import { createConfirmations } from './confirmation.ts'
import { Widget, type WidgetContext } from './context.ts'
import { type Locale, loadMessages, type Messages, messages } from './i18n.ts'
import type { Page } from './ui-state.ts'
import { alice, localChain, testWallet, setUi } from './wallet.fixture.ts'
import type { Wallet } from './wallet.ts'

// The frame in another language shows no English: every page is walked in Indonesian and in
// English, and no text a person sees or hears there (text, placeholder, aria-label, title, alt) is
// left as the English page has it. Names (brands, chains, wallets) and shared terms are the same in both.

beforeAll(() => loadMessages('id'))
afterEach(cleanup)

const config = {
  showPoweredBy: true,
  logoUrl: null,
  useEmailLogin: true,
  google: { enabled: true, clientId: 'g', scriptUrl: null },
  apple: { enabled: false, clientId: null, redirectUri: null, scriptUrl: null },
  telegram: { enabled: false, botId: null, botUsername: null, scriptUrl: null },
  whatsapp: { enabled: true },
  usernamePassword: { enabled: false },
  walletConnect: { relayUrl: 'ws://127.0.0.1:1', projectId: 'p', testWallet: null },
} as unknown as AppConfig

const email = 'ana@example.com'
const hostWallet = { id: 'rabby', name: 'Rabby', icon: 'data:image/svg+xml,', connector: 'injected' as const, installed: true }

/** Every page, how to reach it, and a message of its own that says its lazy part has loaded. */
const walk: { view: 'connect' | 'profile' | 'transaction_confirmation'; page: Page; ready: keyof Messages; setup?: (wallet: Wallet) => void }[] = [
  { view: 'connect', page: 'home', ready: 'loginSubtitle', setup: (w) => setUi(w, { wallets: [hostWallet] }) },
  { view: 'connect', page: 'wallet', ready: 'noWallets' },
  // As after a reload whose stored session lacked some of the app's chains.
  { view: 'connect', page: 'qr-code', ready: 'qrPreparing', setup: (w) => setUi(w, { reconnect: 'Phone' }) },
  { view: 'connect', page: 'whatsapp', ready: 'whatsappHint' },
  {
    view: 'connect',
    page: 'otp',
    ready: 'otpSentTo',
    setup: (w) => setUi(w, { otpTarget: { channel: 'whatsapp', to: '6281234567890', verificationToken: 'v' } }),
  },
  { view: 'connect', page: 'wallet-created', ready: 'createdText', setup: (w) => setUi(w, { secret0: 'secret words' }) },
  // A chain the app does not configure: the row still names it somehow.
  { view: 'profile', page: 'home', ready: 'receive', setup: (w) => setUi(w, { chainId: 999 }) },
  { view: 'profile', page: 'receive', ready: 'copyAddress' },
  { view: 'profile', page: 'chain', ready: 'switchChain' },
  {
    view: 'transaction_confirmation',
    page: 'home',
    ready: 'confirmTransaction',
    setup: (w) =>
      setUi(w, {
        confirmation: {
          id: 1,
          kind: 'transaction',
          status: 'idle',
          error: null,
          payload: {
            from: alice.address,
            to: alice.address,
            value: '0.1',
            data: '0xabcdef',
            chainId: 31337,
            calls: [{ to: alice.address, value: '0', data: '0x1234' }],
          },
        },
      }),
  },
]

/** What a person sees or hears of the page: its text nodes and the text attributes, one string each. */
function shown(): string[] {
  const out: string[] = []
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent?.trim()
    if (text) out.push(text)
  }
  for (const e of document.body.querySelectorAll('*'))
    for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
      const text = e.getAttribute(name)?.trim()
      if (text) out.push(text)
    }
  return out
}

async function renderPage(locale: Locale, step: (typeof walk)[number]): Promise<string[]> {
  const t = testWallet(step.view === 'connect' ? {} : { session: alice })
  await t.wallet.restore()
  t.wallet.open(step.view)
  step.setup?.(t.wallet)
  if (step.page !== 'home') t.wallet.navigate(step.page)
  const value = {
    wallet: t.wallet,
    confirmations: createConfirmations(t.wallet),
    client: {} as never,
    config,
    rpc: () => ({ request: async () => '0x0' }) as never,
    locale,
    persistent: true,
    walletConnect: null,
    // The secure window's presentation: the confirmation is drawn in full there.
    presentation: 'window',
    mode: 'popup',
    secure: null,
  } satisfies WidgetContext
  render(
    <Widget.Provider value={value}>
      <App />
    </Widget.Provider>,
  )
  const ready = messages[locale][step.ready] as string
  await waitFor(() => expect(shown().some((s) => s.includes(ready))).toBe(true), { timeout: 5000 })
  await act(async () => {})
  const texts = shown()
  cleanup()
  return texts
}

/** Names and data, the same in every language: brands, chains, wallets, the test's own values. */
const names = new Set([
  'Wallet Kit',
  'WalletConnect',
  'Google',
  'Whatsapp',
  'Rabby',
  'ETH',
  localChain(31337).name,
  localChain(31338).name,
  email,
  alice.address,
])
/** The words both languages share (Gas, Nonce, Data), in i18n.ts and in the tables kept with their pages. */
const sharedTerms = () => {
  const same = <T extends object>(en: T, id: T) => (Object.keys(en) as (keyof T)[]).filter((key) => en[key] === id[key]).map((key) => en[key])
  return new Set([...same(messages.en, messages.id), ...same(confirmText.en, confirmText.id)])
}

test('in Indonesian, no page shows or names anything in English (text, labels, placeholders), only names and shared terms', async () => {
  const english = new Set(Object.values(messages.en).filter((v): v is string => typeof v === 'string'))
  const shared = sharedTerms()
  const left: string[] = []
  for (const step of walk) {
    const en = await renderPage('en', step)
    const id = await renderPage('id', step)
    for (const text of en) english.add(text)
    for (const text of id) {
      // Words only: numbers, addresses, symbols and the like read the same in both.
      if (!/[A-Za-z]{3}/.test(text) || /^(0x[0-9a-fA-F]*|https?:\/\/\S+)$/.test(text) || names.has(text) || shared.has(text)) continue
      if (english.has(text)) left.push(`${step.view}/${step.page}: ${text}`)
    }
  }
  expect(left).toEqual([])
})
