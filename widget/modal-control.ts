import type { View } from '../bridge/index.ts'
import type { HostPort } from './host-port.ts'
import type { Slice } from './store.ts'
import { pages, type CallsStatusView, type ModalKey, type Page, type UiState } from './ui-state.ts'

/** Where the modal's navigation stands: the page shown, the stack under it, and which way the last move went. */
export type Place = { page: Page; history: readonly Page[]; direction: 'forward' | 'back' }

export const home: Place = { page: 'home', history: [], direction: 'forward' }

export const forward = (at: Place, page: Page): Place => ({ page, history: [...at.history, at.page], direction: 'forward' })

export const back = (at: Place): Place => ({ page: at.history.at(-1) ?? 'home', history: at.history.slice(0, -1), direction: 'back' })

/** Whether `page` belongs to `view` (a page of another modal is never shown in this one). */
export const isPageOf = (view: View, page: Page): boolean => (pages[view] as readonly string[]).includes(page)

/** The modal's pages reset to home this long after it closes (reopened sooner, it keeps its page). */
export const resetDelayMs = 50

/**
 * Which modal is open and on which page: the frame is shown while one is, and closing it answers
 * what waited on it (`onClose`), unless a confirmed request is still being carried out.
 */
export function createModalControl(ui: Slice<UiState, ModalKey>, host: Pick<HostPort, 'setVisible'>) {
  const onClose = new Set<() => void>()
  let resetTimer: ReturnType<typeof setTimeout> | undefined
  const reset = () => {
    clearTimeout(resetTimer)
    resetTimer = undefined
    ui.set({ ...home, direction: 'back', otpTarget: null })
  }

  function open(view: View) {
    clearTimeout(resetTimer)
    resetTimer = undefined
    const { view: was, page } = ui.get()
    // Another modal starts on its home; the same one (reopened within 50 ms) keeps its page.
    ui.set(was === view || (was === null && isPageOf(view, page)) ? { view } : { view, ...home })
    if (was === null) host.setVisible(true)
  }

  function close() {
    const { view, confirmation } = ui.get()
    // No closing while a confirmed request is being carried out; its answer comes.
    // Nor while a paired wallet holds it ('wallet'): the wallet may still sign it, so only its answer counts.
    if (view === null || confirmation?.status === 'loading' || confirmation?.status === 'success' || confirmation?.status === 'wallet') return
    ui.set({ view: null, secret0: null })
    host.setVisible(false)
    for (const fn of onClose) fn()
    resetTimer = setTimeout(reset, resetDelayMs)
  }

  /**
   * The session ended: a closed modal goes back to home now, not 50 ms after its close (reopened
   * sooner, it would keep a page of the session that is gone, such as wallet-created).
   */
  function sessionEnded() {
    if (ui.get().view === null && resetTimer !== undefined) reset()
  }

  /** Hides the modal without closing it: nothing pending is answered (a confirmation still being prepared). */
  function hide() {
    if (ui.get().view === null) return
    ui.set({ view: null })
    host.setVisible(false)
  }

  return {
    open,
    close,
    hide,
    sessionEnded,
    /** Runs `fn` on each close from now on; the function returned stops that. */
    onClose(fn: () => void): () => void {
      onClose.add(fn)
      return () => onClose.delete(fn)
    },
    navigate: (page: Page) => ui.set((s) => forward(s, page)),
    back: () => ui.set((s) => back(s)),
    /** Where the one-time code went (the OTP page shows it; a resend brings a new token). */
    setOtpTarget: (otpTarget: UiState['otpTarget']) => ui.set({ otpTarget }),
    /** The recovery secret of a wallet just created: shown once, dropped when the modal closes. */
    showSecret: (secret0: string) => ui.set({ secret0 }),
    /** The wallet picked for WalletConnect on the wallet list (null: any wallet). */
    pickPairingWallet: (pairingWallet: string | null) => ui.set({ pairingWallet }),
    /** The connect modal, when next opened, starts on the QR page saying why: `peer` must be paired again. */
    askToReconnect(peer: string) {
      ui.set((s) => ({ reconnect: peer, pairingWallet: null, ...(s.view === null && forward(home, 'qr-code')) }))
    },
    /** The wallet that had to be paired again is paired. */
    reconnected() {
      if (ui.get().reconnect !== null) ui.set({ reconnect: null })
    },
    /** wallet_showCallsStatus: the profile's calls-status page shows this batch. */
    showCallsStatus(status: CallsStatusView) {
      ui.set({ callsStatus: status })
      open('profile')
      ui.set((s) => forward(s, 'calls-status'))
    },
  }
}

export type ModalControl = ReturnType<typeof createModalControl>
