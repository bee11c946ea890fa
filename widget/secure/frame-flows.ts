import type { FrameParams } from '../../bridge/frame-url.ts'
import { isRecord } from '../../bridge/rpc-params.ts'
import type { LoginResult } from '../../sdk/index.ts'
import type { FrameMessage, PopupMessage } from '../../sdk/popup-channel.ts'
import type { Confirmations } from '../confirmation.ts'
import { postLoginDelayMs } from '../constants.ts'
import { completeLogin } from '../connect/complete-login.ts'
import type { WidgetClient } from '../service-client.ts'
import type { Store } from '../store.ts'
import type { Wallet } from '../wallet.ts'
import type { SecurePurpose, SecureState } from './secure-handle.ts'
import { openSecureWindow, type SecureWindow } from './secure-window.ts'

// The export page opens its window from here too: one chunk for the window's code, so the frame's
// core names no extra file to fetch with it.
export { openSecureWindow }

/** A login result as the service sends it; anything else from the channel is ignored. */
function isWalletLogin(value: unknown): value is LoginResult & { walletToken: string } {
  return (
    isRecord(value) &&
    value.isWalletCreated === true &&
    typeof value.walletToken === 'string' &&
    typeof value.refreshToken === 'string' &&
    Array.isArray(value.addresses)
  )
}

/**
 * The frame's side of the secure window (secure-window.ts): the confirmations it cannot protect
 * (the window shows the request and takes the decision; the frame signs, as it always does), and
 * the sign-in when this frame cannot keep a session (third-party storage blocked) or the host chose
 * `mode: 'popup'` (the window signs the user in, or finds its first-party session, and the service
 * hands a new session of the same user to this frame through the channel).
 */
export function createSecureFlows(deps: {
  params: FrameParams
  wallet: Wallet
  confirmations: Confirmations
  client: WidgetClient
  /** Shared with the frame's handle (secure-handle.ts), which the UI reads. */
  state: Store<SecureState>
}) {
  const { wallet, confirmations, state } = deps
  let open: SecureWindow | null = null
  /** What the window was last told: the channel holds a bounded number of messages, so only changes go. */
  let told = ''

  const postState = () => {
    const { confirmation, queued, view } = wallet.ui.get()
    if (!open || state.get().purpose !== 'confirm') return
    // The UI changes for many reasons (the host may call setWallets at will): only the request shown
    // and the queue matter to the window.
    const answered = !confirmation && view !== 'transaction_confirmation'
    // While the frame asks a step-up for it, the window's copy says so (the code is typed on the page).
    const shown = confirmation && state.get().askingStepUp ? { ...confirmation, askingStepUp: true as const } : confirmation
    const message: FrameMessage | null = answered ? { type: 'done' } : shown ? { type: 'state', confirmation: shown, queued } : null
    const text = message ? JSON.stringify(message) : ''
    if (!message || text === told) return
    told = text
    // The request is answered (and none waits): the window's work is done, it closes itself.
    void open.channel.post(message).catch(() => {})
  }
  wallet.ui.subscribe(postState)
  state.subscribe(postState)
  // The modal closed (answered, or the host closed it): the window has nothing left to do.
  wallet.onClose(() => close())

  function close() {
    if (!open) return
    // Said on the channel too: without a handle (COOP) that is the only way to reach the window.
    void open.channel.post({ type: 'done' }).catch(() => {})
    open.close()
    end('idle', null)
  }

  /** The window is gone (closed, blocked by the browser, refused by the service): what the frame says now. */
  function end(status: 'idle' | 'blocked' | 'failed', purpose: SecurePurpose | null) {
    open = null
    state.set({ status, purpose })
  }

  const onMessage = (message: PopupMessage) => {
    if (message.type === 'decision' && state.get().purpose === 'confirm') {
      const shown = wallet.ui.get().confirmation
      // A decision names the request it was made on: it never applies to another one.
      if (!shown || message.id !== shown.id) return
      if (message.all === true) return confirmations.rejectAll()
      return void (message.approve ? confirmations.confirm() : confirmations.reject())
    }
    if (message.type === 'session' && state.get().purpose === 'login' && isWalletLogin(message.result)) {
      const result = message.result
      void deps.client.auth
        .adopt(result)
        .then(() => completeLogin(deps, result, postLoginDelayMs.otp))
        .catch((error: unknown) => console.warn('wallet-kit: the session from the secure window could not be kept:', error))
        .finally(() => open?.channel.post({ type: 'done' }).catch(() => {}))
    }
  }

  function start(purpose: SecurePurpose) {
    if (open) return
    told = ''
    state.set({ status: 'open', purpose })
    const win = openSecureWindow(deps.params, {
      message: onMessage,
      closed() {
        end('idle', null)
        // Closing the window is a refusal (4001), unless the request is already being carried out.
        const shown = wallet.ui.get().confirmation
        if (purpose === 'confirm' && shown && shown.status !== 'loading' && shown.status !== 'success') confirmations.reject()
      },
      blocked: () => end('blocked', purpose),
    })
    open = win
    void win.channel.post({ type: 'open', purpose, hostOrigin: wallet.hostOrigin }).catch(() => {
      // The service refused the channel (too many opened from this network, its store full, or no
      // network): the window would wait blank for ever. It closes; the request waits for a retry.
      if (open !== win) return
      win.close()
      end('failed', purpose)
    })
    postState()
  }

  return {
    /** From a click in the frame only: the click's user activation is what lets the window open. */
    open: start,
    close,
  }
}
