import type { Hex } from 'viem'
import type { Confirmation } from '../ui-state.ts'
import { describeMessage } from './message-display.ts'
import { foreignSignIn } from './sign-in-message.ts'

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
