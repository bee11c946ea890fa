import type { Hex } from 'viem'
import { describeMessage, foreignSignIn } from '../confirm/message-display.ts'
import type { Confirmation } from '../ui-state.ts'
import type { SecurePurpose, SecureState } from './secure-handle.ts'

/**
 * Where the user confirms a request: on this screen, in the secure window (a first-party popup on
 * the provider origin that no host page can cover, crop or restyle), or on their own device (a
 * WalletConnect wallet). One answer for every screen that asks, and the rule of which requests a
 * frame may take at all (`confirmableInFrame`).
 */

/** What the screen knows when it asks where a confirmation happens. */
export type ConfirmationContext = {
  /** This screen can open a secure window: the frame can, the secure window itself cannot. */
  secureWindow: boolean
  /** The host's choice: `popup` sends every confirmation and sign-in to the secure window. */
  mode: 'frame' | 'popup'
  /** The connected wallet is a WalletConnect one: the user confirms on that device, not here. */
  onDevice: boolean
  /** The request may be confirmed in a frame the page styles (`confirmableInFrame` below). */
  confirmableInFrame: boolean
  /** What the gate sees of the frame now (ui/use-confirm-gate.ts): `unsafe` when covered or restyled. */
  gate: 'clear' | 'arming' | 'unsafe'
  /** The request is already being carried out (`loading`, `success`): it stays where it is. */
  busy: boolean
  /** The browser can report whether the frame is seen (IntersectionObserver v2, Chromium). */
  visibilityProvable: boolean
}

export type ConfirmationWhy = 'on-device' | 'no-secure-window' | 'under-way' | 'host-chose-popup' | 'moves-value' | 'frame-not-seen' | 'frame-seen'

export type ConfirmationPlace = {
  /** `here`: this screen's own Confirm (in the secure window, that is the window's); `window`: the button that opens it. */
  where: 'here' | 'window' | 'device'
  why: ConfirmationWhy
  /**
   * Whether to say up front that this goes through the secure window: only when that is the rule,
   * the host's choice or the browser's limit, never for a moment when the frame is covered.
   */
  announce: boolean
}

export function confirmationPlace(ctx: ConfirmationContext): ConfirmationPlace {
  const byRule = ctx.mode === 'popup' || !ctx.confirmableInFrame
  const announce = ctx.secureWindow && !ctx.onDevice && !ctx.busy && (byRule || !ctx.visibilityProvable)
  const at = (where: ConfirmationPlace['where'], why: ConfirmationWhy): ConfirmationPlace => ({ where, why, announce })
  if (ctx.onDevice) return at('device', 'on-device')
  if (!ctx.secureWindow) return at('here', 'no-secure-window')
  if (ctx.busy) return at('here', 'under-way')
  if (ctx.mode === 'popup') return at('window', 'host-chose-popup')
  if (!ctx.confirmableInFrame) return at('window', 'moves-value')
  if (ctx.gate === 'unsafe') return at('window', 'frame-not-seen')
  return at('here', 'frame-seen')
}

/**
 * Where a request may be confirmed. The wallet frame is an element of the host page, and the page
 * styles it: IntersectionObserver v2 (Chromium only) sees opacity, filters, transforms and covering
 * elements, and the dialog's intersection sees clip-path's box and a frame too small for the dialog,
 * but no engine lets a cross-origin frame see a mask on its element, or a clip-path with holes. So
 * the frame can never prove that the user sees the whole request. A request that moves value or
 * grants authority (any transaction or batch, typed data, bytes that are not plain text) is
 * therefore confirmed only in the secure window, which no page can style; a plain-text message,
 * whose worst case is a signed sentence the user could have read, may be confirmed in the frame
 * under the gate (ui/use-confirm-gate.ts), unless it signs the user in to another site than
 * `hostOrigin` (the origin the bridge verified), which is authority over that site.
 */
export function confirmableInFrame(confirmation: Pick<Confirmation, 'kind' | 'payload'>, hostOrigin: string): boolean {
  if (confirmation.kind !== 'message') return false
  const view = describeMessage((confirmation.payload.message ?? '0x') as Hex)
  return view.as === 'text' && view.warning === null && foreignSignIn(view.shown, hostOrigin) === null
}

/** What the secure window is doing for `purpose`: open, refused by the browser, or nothing. */
export const windowStatus = (state: SecureState, purpose: SecurePurpose): SecureState['status'] => (state.purpose === purpose ? state.status : 'idle')
