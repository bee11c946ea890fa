import { useRef, useState, type ClipboardEvent, type FormEvent } from 'react'
import { errorDisplayMs, otpLength, postLoginDelayMs, resendWaitSeconds } from '../constants.ts'
import { useWidget, useT } from '../context.ts'
import { errorText, useCountdown, useTimedMessage } from '../use-timed.ts'
import { completeLogin } from './complete-login.ts'
import { useBadgeGuard } from './use-badge-guard.ts'

const digitsOnly = (s: string) => s.replace(/\D/g, '').slice(0, otpLength)

export function Otp() {
  const { wallet, client } = useWidget()
  const t = useT()
  const target = wallet.ui.get().otpTarget
  const [code, setCode] = useState('')
  const [error, showError] = useTimedMessage(errorDisplayMs)
  const [left, restart] = useCountdown(target?.channel === 'whatsapp' ? resendWaitSeconds.whatsapp : resendWaitSeconds.email)
  const inFlight = useRef(false)
  const [busy, setBusy] = useState(false)
  const codeInput = useRef<HTMLInputElement>(null)
  useBadgeGuard(codeInput)

  if (!target) return null

  async function verify(otp: string) {
    if (inFlight.current || !target) return
    if (otp.length !== otpLength) return showError(t.otpLength)
    inFlight.current = true
    setBusy(true)
    try {
      const params = { verificationToken: target.verificationToken, otp }
      const login = target.channel === 'whatsapp' ? await client.auth.verifyWhatsapp(params) : await client.auth.verifyOtp(params)
      await completeLogin({ wallet, client }, login, postLoginDelayMs.otp)
    } catch (err) {
      setCode('')
      showError(errorText(err))
    } finally {
      inFlight.current = false
      setBusy(false)
    }
  }

  function onChange(value: string) {
    const next = digitsOnly(value)
    setCode(next)
    if (next.length === otpLength) void verify(next)
  }

  function onPaste(e: ClipboardEvent<HTMLInputElement>) {
    e.preventDefault()
    onChange(e.clipboardData.getData('text').trim())
  }

  async function resend() {
    if (left > 0 || !target) return
    try {
      const { verificationToken } =
        target.channel === 'whatsapp' ? await client.auth.loginWhatsapp({ phoneNumber: target.to }) : await client.auth.loginOtp({ email: target.to })
      wallet.setOtpTarget({ ...target, verificationToken })
      restart(resendWaitSeconds.afterResend)
    } catch (err) {
      showError(errorText(err))
    }
  }

  return (
    <form
      className="wk-stack"
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault()
        void verify(code)
      }}
    >
      <p className="wk-text">
        {t.otpSentTo} <strong>{target.channel === 'whatsapp' ? `+${target.to}` : target.to}</strong>
        {target.channel === 'whatsapp' ? ` ${t.onWhatsapp}` : ''}.
      </p>
      <label className="wk-sr-only" htmlFor="wk-otp">
        {t.verificationCode}
      </label>
      <input
        id="wk-otp"
        ref={codeInput}
        className="wk-input wk-otp"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={otpLength}
        value={code}
        placeholder={'•'.repeat(otpLength)}
        onChange={(e) => onChange(e.target.value)}
        onPaste={onPaste}
      />
      <div className="wk-row">
        <span className="wk-muted">{t.noCode}</span>
        <button type="button" className="wk-link" disabled={left > 0} onClick={() => void resend()}>
          {left > 0 ? t.resendIn(left) : t.resend}
        </button>
      </div>
      <button className="wk-button wk-button--primary" type="submit" disabled={busy}>
        {busy ? t.verifying : t.confirm}
      </button>
      <p className="wk-error" role="alert">
        {error}
      </p>
    </form>
  )
}
