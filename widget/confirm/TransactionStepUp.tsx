import { useEffect, useRef, useState } from 'react'
import type { PasskeyCredentialJson } from '../../sdk/passkeys.ts'
import { startStepUp, verifyStepUp, type StepUpChallenge, type StepUpFactor } from '../../sdk/wallet/step-up.ts'
import { otpLength } from '../constants.ts'
import { useWidget } from '../context.ts'
import { StepUpForm } from '../ui/StepUpForm.tsx'
import { errorText } from '../use-timed.ts'
import { transactionStepUpText } from './transaction-step-up-text.ts'

/**
 * Inside the confirmation: the app wants a second factor for this transaction, so the service's
 * step-up is started for the hash of the very transaction being sent (`request`): the user's passkey
 * when they have one (its ceremony from a click of its own), else a code to their e-mail. The proof
 * it earns answers `onProof`. A wrong code says so and sends nothing; Reject answers `onCancel`.
 */
export function TransactionStepUp({ request, onProof, onCancel }: { request: `0x${string}`; onProof(proof: string): void; onCancel(): void }) {
  const { client, locale, secure } = useWidget()
  const text = transactionStepUpText[locale]
  const [challenge, setChallenge] = useState<StepUpChallenge | null>(null)
  /** A passkey's answer was refused: its challenge is spent, a new step-up is one click away. */
  const [retry, setRetry] = useState(false)
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const live = useRef(true)

  async function call(step: () => Promise<void>) {
    const ctx = client.context
    if (busy || !ctx) return
    setBusy(true)
    setError(null)
    try {
      await step()
    } catch (failure) {
      if (!live.current) return
      setCode('')
      setError((failure as { code?: unknown })?.code === '409' ? text.noEmail : errorText(failure))
    } finally {
      if (live.current) setBusy(false)
    }
  }
  const send = (factors: StepUpFactor[] = ['passkey', 'email']) =>
    call(async () => {
      setRetry(false)
      const started = await startStepUp(client.context!, { action: 'send-transaction', request, factors })
      if (live.current) setChallenge(started)
    })
  const verify = (answer: { code: string } | { credential: PasskeyCredentialJson }) => {
    if ('code' in answer && answer.code.length !== otpLength) return setError(text.codeLength)
    const asked = challenge!
    return call(async () => {
      try {
        const { stepUpProof } = await verifyStepUp(client.context!, { challengeId: asked.challengeId, ...answer })
        if (live.current) onProof(stepUpProof)
      } catch (failure) {
        // A passkey's challenge answers once: a refused assertion leaves a new one to try.
        if ('credential' in answer && live.current) {
          setChallenge(null)
          setRetry(true)
        }
        throw failure
      }
    })
  }
  // The code is sent as soon as the step is shown: the user has already confirmed the transaction.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per request
  useEffect(() => {
    live.current = true
    void send()
    return () => {
      live.current = false
    }
  }, [request])

  // The user may have confirmed in the secure window: while this step is up, the window says to answer it here.
  useEffect(() => {
    if (!secure) return
    secure.state.set({ askingStepUp: true })
    return () => secure.state.set({ askingStepUp: false })
  }, [secure])

  const alert = (
    <p className="wk-error" role="alert">
      {error}
    </p>
  )
  return (
    <div className="wk-stack" data-testid="confirm-step-up">
      <p className="wk-text">{text.why}</p>
      {challenge ? (
        <StepUpForm
          text={text}
          challenge={challenge}
          code={code}
          busy={busy}
          onCode={setCode}
          onVerify={(entered) => void verify({ code: entered })}
          onResend={() => void send(['email'])}
          onPasskey={(credential) => void verify({ credential })}
          onEmailInstead={() => void send(['email'])}
        >
          {alert}
        </StepUpForm>
      ) : (
        <>
          {busy && <p className="wk-text">{text.sending}</p>}
          {alert}
          {retry && !busy && (
            <button type="button" className="wk-button wk-button--primary" onClick={() => void send()}>
              {text.tryAgain}
            </button>
          )}
        </>
      )}
      <button type="button" className="wk-button" onClick={onCancel}>
        {text.cancel}
      </button>
    </div>
  )
}
