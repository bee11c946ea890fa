import { useId, type ReactNode } from 'react'
import { otpLength } from '../constants.ts'

/** The words of a code form, from the chunk of the page that shows it. */
export type CodeFormText = { sentTo: (where: string) => string; codeLabel: string; verify: string; verifying: string; resend: string }

/**
 * A step-up code's entry: where the code went, the 6 digits (checked as soon as the last one is typed),
 * Confirm and 'Send a new code'. Shared by every page that asks a step-up code (key export, a
 * transaction above the app's threshold); the page keeps the code and the calls.
 */
export function CodeForm(props: {
  text: CodeFormText
  sentTo: string
  code: string
  busy: boolean
  onCode(code: string): void
  onVerify(code: string): void
  onResend(): void
  children?: ReactNode
}) {
  const { text, sentTo, code, busy } = props
  const codeId = useId()
  return (
    <form
      className="wk-stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        props.onVerify(code)
      }}
    >
      <p className="wk-text">{text.sentTo(sentTo)}</p>
      <label className="wk-sr-only" htmlFor={codeId}>
        {text.codeLabel}
      </label>
      <input
        id={codeId}
        className="wk-input wk-otp"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={otpLength}
        value={code}
        placeholder={'•'.repeat(otpLength)}
        disabled={busy}
        onChange={(e) => {
          const next = e.target.value.replace(/\D/g, '').slice(0, otpLength)
          props.onCode(next)
          if (next.length === otpLength) props.onVerify(next)
        }}
      />
      <button type="submit" className="wk-button wk-button--primary" disabled={busy}>
        {busy ? text.verifying : text.verify}
      </button>
      <button type="button" className="wk-link" disabled={busy} onClick={props.onResend}>
        {text.resend}
      </button>
      {props.children}
    </form>
  )
}
