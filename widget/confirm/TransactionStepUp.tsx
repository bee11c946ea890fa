import { useEffect, useRef, useState } from 'react'
import { startStepUp, verifyStepUp } from '../../sdk/wallet/step-up.ts'
import { otpLength } from '../constants.ts'
import { useWidget } from '../context.ts'
import { CodeForm } from '../ui/CodeForm.tsx'
import { errorText } from '../use-timed.ts'
import { transactionStepUpText } from './transaction-step-up-text.ts'

/**
 * Inside the confirmation: the app wants a second factor for this transaction, so a code goes to the
 * user's e-mail for the hash of the very transaction being sent (`request`), and the proof the right
 * code earns answers `onProof`. A wrong code says so and sends nothing; Reject answers `onCancel`.
 */
export function TransactionStepUp({ request, onProof, onCancel }: { request: `0x${string}`; onProof(proof: string): void; onCancel(): void }) {
  const { client, locale } = useWidget()
  const text = transactionStepUpText[locale]
  const [challenge, setChallenge] = useState<{ id: string; sentTo: string } | null>(null)
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
  const send = () =>
    call(async () => {
      const started = await startStepUp(client.context!, { action: 'send-transaction', request })
      if (live.current) setChallenge({ id: started.challengeId, sentTo: started.sentTo ?? '' })
    })
  const verify = (entered: string) => {
    if (entered.length !== otpLength) return setError(text.codeLength)
    return call(async () => {
      const { stepUpProof } = await verifyStepUp(client.context!, { challengeId: challenge!.id, code: entered })
      if (live.current) onProof(stepUpProof)
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

  const alert = (
    <p className="wk-error" role="alert">
      {error}
    </p>
  )
  return (
    <div className="wk-stack" data-testid="confirm-step-up">
      <p className="wk-text">{text.why}</p>
      {challenge ? (
        <CodeForm text={text} sentTo={challenge.sentTo} code={code} busy={busy} onCode={setCode} onVerify={(c) => void verify(c)} onResend={() => void send()}>
          {alert}
        </CodeForm>
      ) : (
        <>
          {busy && <p className="wk-text">{text.sending}</p>}
          {alert}
        </>
      )}
      <button type="button" className="wk-button" onClick={onCancel}>
        {text.cancel}
      </button>
    </div>
  )
}
