import type { View } from '../bridge/index.ts'

/**
 * The pages of each modal: one table for the navigator, the modals' route tables and the tests.
 * Every modal starts on `home`; the back stack is shared (ui-state.ts `page`, `history`,
 * `direction`): back pops it, an empty history goes home, and 50 ms after a modal closes its
 * pages reset to home.
 */
export const pages = {
  connect: ['home', 'wallet', 'qr-code', 'whatsapp', 'otp', 'wallet-created'],
  profile: [
    'home',
    'receive',
    'chain',
    'onramp',
    'select-currency',
    'select-crypto',
    'smart-account',
    'calls-status',
    'recovery',
    'export-key',
    'passkeys',
    'security',
  ],
  chain: ['home'],
  transaction_confirmation: ['home'],
  need_permission: ['home'],
} as const satisfies Record<View, readonly ['home', ...string[]]>

export type PageOf<V extends View> = (typeof pages)[V][number]
export type ConnectPage = PageOf<'connect'>
export type ProfilePage = PageOf<'profile'>
export type Page = PageOf<View>

/** Where navigation stands: the page shown, the stack under it, and which way the last move went. */
export type Place = { page: Page; history: readonly Page[]; direction: 'forward' | 'back' }

export const home: Place = { page: 'home', history: [], direction: 'forward' }

export const forward = (at: Place, page: Page): Place => ({ page, history: [...at.history, at.page], direction: 'forward' })

export const back = (at: Place): Place => ({ page: at.history.at(-1) ?? 'home', history: at.history.slice(0, -1), direction: 'back' })

/** Whether `page` belongs to `view` (a page of another modal is never shown in this one). */
export const isPageOf = (view: View, page: Page): boolean => (pages[view] as readonly string[]).includes(page)
