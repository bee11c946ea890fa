import { useEffect } from 'react'
import { useWidget, useStore, useT } from '../context.ts'
import type { Gate } from '../ui/use-confirm-gate.ts'
import { windowStatus } from '../confirm/presentation.ts'
import type { SecurePurpose } from './secure-handle.ts'

/**
 * The secure window as the frame offers it: its state for `purpose`, and its code preloaded while
 * its button shows (by the click it is there). A confirmation the frame itself may take shows the
 * notes alone and loads none of it: the button, and so the preload, come when the frame is covered.
 */
function useSecureWindow(purpose: SecurePurpose, offered: boolean) {
  const { secure } = useWidget()
  const t = useT()
  const status = useStore(secure!.state, (s) => windowStatus(s, purpose))
  useEffect(() => (offered ? secure!.preload() : undefined), [secure, offered])
  // What went wrong with the last window (the browser blocked it, or it could not start), if anything.
  const problem = status === 'blocked' || status === 'failed' ? status : null
  return { problem, open: status === 'open', label: problem ? t.tryAgainWindow : t.openSecureWindow, start: () => secure!.open(purpose) }
}

/** Each problem's alert: its words and its test id. */
const problems = {
  blocked: { text: 'secureWindowBlocked', testId: 'secure-window-blocked' },
  failed: { text: 'secureWindowFailed', testId: 'secure-window-failed' },
} as const

/**
 * 'Open secure window' in the place of Confirm (the same slot: nothing moves under the pointer when
 * the frame stops being able to show it is seen). A blocked window, or one that could not start, turns it into a retry: a new
 * click, so the browser lets it open if the user allowed pop-ups meanwhile. For a confirmation it
 * keeps Confirm's timing (`gate`): no click right after the request showed, the frame moved or the
 * pointer came in, so it cannot be the first click of a double-click game whose second click lands
 * in the window.
 */
export function SecureWindowButton({ purpose, gate }: { purpose: SecurePurpose; gate?: Gate }) {
  const { open, label, start } = useSecureWindow(purpose, true)
  return (
    <button
      type="button"
      className="wk-button wk-button--primary"
      disabled={open || (gate !== undefined && !gate.settled)}
      onClick={() => (!gate || gate.settledNow()) && start()}
    >
      {label}
    </button>
  )
}

/** Why the secure window (`hint`), that it is open, or that the browser blocked it or it could not start. */
export function SecureWindowNotes({ purpose, hint }: { purpose: SecurePurpose; hint: boolean }) {
  const { problem, open } = useSecureWindow(purpose, false)
  const t = useT()
  return (
    <>
      {hint && <p className="wk-hint">{purpose === 'confirm' ? t.secureConfirmHint : t.secureLoginHint}</p>}
      {problem && (
        <p className="wk-error" role="alert" data-testid={problems[problem].testId}>
          {t[problems[problem].text]}
        </p>
      )}
      {open && (
        <p className="wk-notice" role="status" data-testid="secure-window-open">
          {t.secureWindowOpen}
        </p>
      )}
    </>
  )
}

/** The sign-in through the secure window (the connect home of a frame that cannot keep a session). */
export function SecureWindowSignIn() {
  return (
    <div className="wk-stack wk-full" data-testid="secure-window">
      <SecureWindowNotes purpose="login" hint />
      <SecureWindowButton purpose="login" />
    </div>
  )
}
