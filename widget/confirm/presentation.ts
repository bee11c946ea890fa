import { hexToBytes, type Hex } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import type { SecurePurpose, SecureState } from '../secure/secure-handle.ts'
import type { Confirmation } from '../ui-state.ts'

/*
 * How a request is put before the user, in one place: what a message reads as (whether showing
 * its bytes as text tells the truth about them, and which site a sign-in names), and where the
 * request is confirmed (this screen, the secure window, or a paired device). The two go together:
 * a message may be confirmed in a frame only when it reads as plain text that signs the user in
 * nowhere else (`confirmableInFrame`), so the rule and the reading it rests on are one file.
 */

/**
 * How a personal_sign message is shown. What is signed is always the exact bytes; the question is
 * only whether showing them as text would tell the user the truth about them.
 * - `text`: valid UTF-8 with nothing hidden in it; shown as text.
 * - `bytes`: not UTF-8, or text that hides characters (controls, bidi overrides, zero-width and other
 *   format characters can make one string read as another); shown as hex, with a warning for the latter.
 * Text that itself reads as hex ("0xdeadbeef") is shown as text with a warning and its bytes, since
 * the user could not otherwise tell it from the bytes 0xdeadbeef. Exactly 32 bytes that are not text
 * are what a hash looks like (of a transaction, an operation, typed data): signing one is blind
 * signing, and it is said so.
 */
export type MessageView =
  | { as: 'text'; shown: string; warning: null }
  | { as: 'text'; shown: string; warning: 'looks-like-hex'; bytes: Hex }
  | { as: 'bytes'; shown: Hex; warning: null | 'invisible' | 'hash' }

/**
 * Characters that do not show as themselves: C0/C1 controls (but tab and line breaks), format
 * characters (bidi overrides and isolates, zero-width space/joiners, BOM, …), line and paragraph
 * separators, private use and unassigned code points, and the Hangul fillers that render as blanks.
 */
const invisible = /(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u
const invisibleAll = new RegExp(invisible.source, 'gu')
const looksLikeHex = /^0x[0-9a-f]*$/i

export function describeMessage(bytes: Hex): MessageView {
  if (bytes === '0x') return { as: 'bytes', shown: bytes, warning: null }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(hexToBytes(bytes))
  } catch {
    return { as: 'bytes', shown: bytes, warning: bytes.length === 66 ? 'hash' : null }
  }
  if (invisible.test(text)) return { as: 'bytes', shown: bytes, warning: 'invisible' }
  if (looksLikeHex.test(text.trim())) return { as: 'text', shown: text, warning: 'looks-like-hex', bytes }
  return { as: 'text', shown: text, warning: null }
}

/** Typed data is JSON: invisible characters inside its strings become `\uXXXX` escapes, which read the same to a parser. */
export function revealInvisible(json: string): { text: string; revealed: boolean } {
  let revealed = false
  const text = json.replace(invisibleAll, (c) => {
    revealed = true
    return [...c].map((u) => `\\u${u.codePointAt(0)!.toString(16).padStart(4, '0')}`).join('')
  })
  return { text, revealed }
}

/** The first `limit` characters (code points) of a message and how many are left out: the caller must say so. */
export function clip(shown: string, limit: number): { visible: string; hidden: number; total: number } {
  const chars = [...shown]
  return { visible: chars.slice(0, limit).join(''), hidden: Math.max(0, chars.length - limit), total: chars.length }
}

const signInPhrase = 'wants you to sign in with your Ethereum account'

/**
 * A sign-in message (EIP-4361) names the site it signs the user in to. Signed for another site than
 * the one asking, it lets the asking site sign in there as the user: the phishing case wallets warn
 * about. Returns the site the message claims when it is not the requesting origin (or cannot be
 * read, for text that uses the sign-in phrase but not the format: a lax verifier may still take it),
 * and null for any other text.
 */
export function foreignSignIn(text: string, hostOrigin: string): string | null {
  if (!text.includes(signInPhrase)) return null
  const { domain, scheme } = parseSiweMessage(text)
  if (!domain) return text.slice(0, text.indexOf(signInPhrase)).trim() || '?'
  let host: URL
  try {
    host = new URL(hostOrigin)
  } catch {
    return domain
  }
  const sameScheme = !scheme || `${scheme}:` === host.protocol
  return domain.toLowerCase() === host.host.toLowerCase() && sameScheme ? null : scheme ? `${scheme}://${domain}` : domain
}

/**
 * The site a well-formed sign-in message (EIP-4361) signs the user in to when it is the requesting
 * page's own (what wallet_connect writes): the confirmation then says it is a sign-in there. Null for
 * any other text, and for a sign-in for another site (foreignSignIn warns about that one).
 */
export function ownSignIn(text: string, hostOrigin: string): string | null {
  if (!text.includes(signInPhrase)) return null
  const { domain, address, nonce } = parseSiweMessage(text)
  return domain && address && nonce && foreignSignIn(text, hostOrigin) === null ? domain : null
}

// Where the user confirms a request: on this screen, in the secure window (a first-party popup on
// the provider origin that no host page can cover, crop or restyle), or on their own device (a
// WalletConnect wallet). One answer for every screen that asks, and the rule of which requests a
// frame may take at all (`confirmableInFrame`).

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
