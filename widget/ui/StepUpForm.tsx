import { useState, type ReactNode } from 'react'
import type { PasskeyCredentialJson } from '../../sdk/passkeys.ts'
import type { StepUpChallenge } from '../../sdk/wallet/step-up.ts'
import { getPasskey, PasskeyNotMade } from '../connect/passkey-ceremony.ts'
import { CodeForm, type CodeFormText } from './CodeForm.tsx'

/** The words of a step-up, from the chunk of the page that asks it: the code form's, and the passkey's. */
export type StepUpText = CodeFormText & {
  passkeyAsk: string
  passkeyButton: string
  passkeyWaiting: string
  passkeyCancelled: string
  /** The engine refuses the ceremony here and the account has no e-mail address for a code. */
  passkeyRefused: string
}

/**
 * A started step-up's question, whichever factor the service asked: the code form for an e-mail code,
 * or 'Confirm with your passkey' for a passkey, whose ceremony starts from that click (a browser
 * gives the ceremony only to a user's gesture). A cancelled ceremony says so and sends nothing; an
 * engine that refuses passkeys here falls back to an e-mail code (`onEmailInstead`) when the service
 * offered one, else says so. The page keeps the challenge and the calls.
 */
export function StepUpForm(props: {
  text: StepUpText
  challenge: StepUpChallenge
  code: string
  busy: boolean
  onCode(code: string): void
  onVerify(code: string): void
  onResend(): void
  onPasskey(credential: PasskeyCredentialJson): void
  onEmailInstead(): void
  children?: ReactNode
}) {
  const { text, challenge, busy } = props
  const [ceremony, setCeremony] = useState<'idle' | 'running' | 'cancelled' | 'refused'>('idle')
  if (challenge.factor === 'email' || !challenge.options)
    return (
      <CodeForm
        text={text}
        sentTo={challenge.sentTo ?? ''}
        code={props.code}
        busy={busy}
        onCode={props.onCode}
        onVerify={props.onVerify}
        onResend={props.onResend}
      >
        {props.children}
      </CodeForm>
    )
  const options = challenge.options
  function run() {
    setCeremony('running')
    getPasskey(options).then(
      (credential) => {
        setCeremony('idle')
        props.onPasskey(credential)
      },
      (error: unknown) => {
        const reason = error instanceof PasskeyNotMade ? error.reason : 'cancelled'
        if (reason === 'cancelled') return setCeremony('cancelled')
        if (challenge.otherFactors?.includes('email')) {
          setCeremony('idle')
          return props.onEmailInstead()
        }
        setCeremony('refused')
      },
    )
  }
  const waiting = busy || ceremony === 'running'
  return (
    <div className="wk-stack" data-testid="step-up-passkey">
      <p className="wk-text">{text.passkeyAsk}</p>
      {ceremony === 'refused' ? (
        <p className="wk-error" role="alert">
          {text.passkeyRefused}
        </p>
      ) : (
        <button type="button" className="wk-button wk-button--primary" disabled={waiting} onClick={run}>
          {waiting ? text.passkeyWaiting : text.passkeyButton}
        </button>
      )}
      {ceremony === 'cancelled' && (
        <p className="wk-notice" role="status">
          {text.passkeyCancelled}
        </p>
      )}
      {props.children}
    </div>
  )
}
