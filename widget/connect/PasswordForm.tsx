import { useRef, useState, type FormEvent } from 'react'
import { errorDisplayMs, postLoginDelayMs } from '../constants.ts'
import { useWidget, useT } from '../context.ts'
import { errorText, useTimedMessage } from '../use-timed.ts'
import { completeLogin } from './complete-login.ts'
import { readCredentials } from './password-login.ts'

/**
 * The username and password form of the connect home, shown only when
 * app config turns it on, and then loaded (Home.tsx). Both fields required; a wrong login registers
 * the same credentials; the post-login delay is OTP's, 500 ms (OTP and username logins
 * share it, social logins wait 200 ms); a second submit while one is in flight is ignored.
 */
export function PasswordForm({ divider }: { divider: boolean }) {
  const { wallet, client } = useWidget()
  const t = useT()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [error, showError] = useTimedMessage(errorDisplayMs)
  const inFlight = useRef(false)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (inFlight.current) return
    const credentials = readCredentials(username, password)
    if (!credentials) return showError(t.credentialsRequired)
    inFlight.current = true
    setBusy(true)
    try {
      // A wrong login registers the same credentials (the sdk's loginOrRegister, on 'username or password is incorrect').
      const login = await client.auth.loginOrRegister(credentials)
      await completeLogin({ wallet, client }, login, postLoginDelayMs.otp)
    } catch (err) {
      showError(errorText(err))
    } finally {
      inFlight.current = false
      setBusy(false)
    }
  }

  return (
    <>
      {divider && (
        // biome-ignore lint/a11y/useSemanticElements: this separator shows its word ('or'), which an <hr> (a void element) cannot hold
        <div className="wk-divider" role="separator">
          {t.or}
        </div>
      )}
      <form className="wk-stack wk-full" onSubmit={(e) => void submit(e)} noValidate data-testid="password-form">
        <label className="wk-sr-only" htmlFor="wk-username">
          {t.username}
        </label>
        <input
          id="wk-username"
          className="wk-input"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={t.username}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <label className="wk-sr-only" htmlFor="wk-password">
          {t.password}
        </label>
        <input
          id="wk-password"
          className="wk-input"
          type="password"
          autoComplete="current-password"
          placeholder={t.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button className="wk-button wk-button--primary" type="submit" disabled={busy}>
          {busy ? t.signingIn : t.signIn}
        </button>
        <p className="wk-error" role="alert">
          {error}
        </p>
      </form>
    </>
  )
}
