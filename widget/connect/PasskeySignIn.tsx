import { useState } from 'react'
import { useWidget } from '../context.ts'
import { SecureWindowButton, SecureWindowNotes } from '../secure/SecureWindowButton.tsx'
import { PasskeyNotMade } from './passkey-ceremony.ts'
import { passkeyError, passkeyText } from './passkey-text.ts'

/**
 * 'Sign in with a passkey' on the connect modal's 'More Options' page. The ceremony's code loads on
 * the click. Where the engine refuses the ceremony in this frame, the secure window (a top-level page
 * of the provider, where it runs) is offered instead. A frame that signs in through the secure window
 * anyway (no storage of its own, or popup mode) shows none: its window has this button.
 */
export function PasskeySignIn() {
  const ctx = useWidget()
  const text = passkeyText[ctx.locale]
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [refusedHere, setRefusedHere] = useState(false)
  if (ctx.secure && (!ctx.persistent || ctx.mode === 'popup')) return null
  const start = async () => {
    setBusy(true)
    setError(null)
    try {
      const flow = await import('./passkey-login.ts')
      await flow.passkeyLogin(ctx)
    } catch (e) {
      setError(passkeyError(e, text, 'signInCancelled'))
      setRefusedHere(e instanceof PasskeyNotMade && e.reason === 'frame')
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="wk-stack wk-full">
      <button type="button" className="wk-button" disabled={busy} onClick={() => void start()} data-testid="passkey-sign-in">
        {busy ? text.waiting : text.signIn}
      </button>
      <p className="wk-error" role="alert">
        {error}
      </p>
      {refusedHere && ctx.secure && (
        <>
          <SecureWindowNotes purpose="login" hint={false} />
          <SecureWindowButton purpose="login" />
        </>
      )}
    </div>
  )
}
