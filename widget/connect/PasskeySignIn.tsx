import { useState } from 'react'
import { useWidget } from '../context.ts'
import { passkeyError, passkeyText } from './passkey-text.ts'

/**
 * 'Sign in with a passkey' on the connect modal's 'More Options' page. The ceremony's code loads on
 * the click. A frame that signs in through the secure window (no storage of its own, or popup mode)
 * has no passkey sign-in here yet.
 */
export function PasskeySignIn() {
  const ctx = useWidget()
  const text = passkeyText[ctx.locale]
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  if (ctx.secure && (!ctx.persistent || ctx.mode === 'popup')) return null
  const start = async () => {
    setBusy(true)
    setError(null)
    try {
      const flow = await import('./passkey-login.ts')
      await flow.passkeyLogin(ctx)
    } catch (e) {
      setError(passkeyError(e, text, 'signInCancelled'))
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
    </div>
  )
}
