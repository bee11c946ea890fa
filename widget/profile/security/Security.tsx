import { useEffect, useRef, useState } from 'react'
import { parseUnits } from 'viem'
import { SdkError } from '../../../sdk/errors.ts'
import { getStepUpThresholds, setStepUpThreshold, thresholdChangeHash, type StepUpThreshold } from '../../../sdk/wallet/step-up-threshold.ts'
import type { PasskeyCredentialJson } from '../../../sdk/passkeys.ts'
import { startStepUp, verifyStepUp, type StepUpChallenge, type StepUpFactor } from '../../../sdk/wallet/step-up.ts'
import { otpLength } from '../../constants.ts'
import { useWidget } from '../../context.ts'
import { StepUpForm } from '../../ui/StepUpForm.tsx'
import { errorText } from '../../use-timed.ts'
import { securityText } from './security-text.ts'

/** A change of one chain's own threshold: the new amount as typed and in base units (null: removed). */
type Change = { chainId: number; amount: string | null; above: bigint | null }
type Step = { at: 'list' } | { at: 'code'; change: Change; challenge: StepUpChallenge }

/** The amount in the chain's base unit, or undefined when it is not a plain decimal with at most `decimals` places. */
function baseUnits(amount: string, decimals: number): bigint | undefined {
  const match = /^\d{1,59}(?:\.(\d+))?$/.exec(amount)
  if (!match || (match[1]?.length ?? 0) > decimals) return undefined
  return parseUnits(amount, decimals)
}

/** Whether `next` lets more through than the user's current threshold (then the service asks a step-up first). */
function isLooser(row: StepUpThreshold, next: bigint | null): boolean {
  if (row.user === null) return false
  return next === null || next > parseUnits(row.user, row.decimals)
}

/**
 * The profile's 'security' page: per chain of the app, when a transaction asks a confirmation code
 * (the lower of the app's amount and the user's own), and the user's own amount. A stricter amount
 * is saved at once; a looser one (higher, or removed) is confirmed first, with a passkey the user
 * has or else the e-mail code, as the service requires: a stolen session must not be able to switch
 * the rule off.
 */
export function Security() {
  const { client, locale, wallet } = useWidget()
  const text = securityText[locale]
  const [rows, setRows] = useState<StepUpThreshold[] | null>(null)
  const [drafts, setDrafts] = useState<Record<number, string>>({})
  const [step, setStep] = useState<Step>({ at: 'list' })
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const live = useRef(true)
  useEffect(() => {
    live.current = true
    const ctx = client.context
    if (ctx)
      getStepUpThresholds(ctx).then(
        (answer) => live.current && setRows(answer.thresholds),
        (failure: unknown) => live.current && setError(errorText(failure)),
      )
    return () => {
      live.current = false
    }
  }, [client])

  /** Runs `task` with the page busy; its failure shows as the page's error. */
  async function run(task: () => Promise<void>) {
    if (busy || !client.context) return
    setBusy(true)
    setError(null)
    setNotice(null)
    try {
      await task()
    } catch (failure) {
      if (live.current) setError(errorText(failure))
    } finally {
      if (live.current) setBusy(false)
    }
  }

  const saved = (answer: { thresholds: StepUpThreshold[] }) => {
    if (!live.current) return
    setRows(answer.thresholds)
    setDrafts({})
    setStep({ at: 'list' })
    setNotice(text.saved)
  }

  /** Asks the step-up for `change` (a passkey the user has, else a code): the proof is bound to the chain and the new amount. */
  const askCode = async (change: Change, factors: StepUpFactor[] = ['passkey', 'email']) => {
    const ctx = client.context
    if (!ctx) return
    const request = thresholdChangeHash(change.chainId, change.above)
    const challenge = await startStepUp(ctx, { action: 'loosen-step-up', request, factors })
    if (!live.current) return
    setCode('')
    setStep({ at: 'code', change, challenge })
  }

  const save = (row: StepUpThreshold, amount: string | null) =>
    run(async () => {
      const ctx = client.context
      if (!ctx) return
      const next = amount === null ? null : baseUnits(amount, row.decimals)
      if (next === undefined) return setError(text.badAmount)
      const change = { chainId: row.chainId, amount, above: next }
      if (isLooser(row, next)) return askCode(change)
      try {
        saved(await setStepUpThreshold(ctx, row.chainId, amount))
      } catch (failure) {
        // Changed meanwhile on another device: what was stricter here is looser there.
        const stepUp = failure instanceof SdkError && (failure.details as { data?: { stepUp?: unknown } } | undefined)?.data?.stepUp
        if (!stepUp) throw failure
        await askCode(change)
      }
    })

  /** The typed code or the passkey's assertion, for the challenge; then the change, with the proof. */
  const verify = (change: Change, challengeId: string, answer: { code: string } | { credential: PasskeyCredentialJson }) =>
    run(async () => {
      const ctx = client.context
      if (!ctx) return
      if ('code' in answer && answer.code.length !== otpLength) return setError(text.codeLength)
      try {
        const { stepUpProof } = await verifyStepUp(ctx, { challengeId, ...answer })
        saved(await setStepUpThreshold(ctx, change.chainId, change.amount, stepUpProof))
      } catch (failure) {
        if (!live.current) throw failure
        setCode('')
        // A passkey's challenge answers once: a refused assertion goes back to the list, unchanged.
        if ('credential' in answer) setStep({ at: 'list' })
        throw failure
      }
    })

  const alert = (
    <p className="wk-error" role="alert">
      {error}
    </p>
  )
  if (step.at === 'code')
    return (
      <StepUpForm
        text={text}
        challenge={step.challenge}
        code={code}
        busy={busy}
        onCode={setCode}
        onVerify={(entered) => void verify(step.change, step.challenge.challengeId, { code: entered })}
        onResend={() => void run(() => askCode(step.change, ['email']))}
        onPasskey={(credential) => void verify(step.change, step.challenge.challengeId, { credential })}
        onEmailInstead={() => void run(() => askCode(step.change, ['email']))}
      >
        <p className="wk-text">{text.looserWhy}</p>
        <button type="button" className="wk-link" disabled={busy} onClick={() => setStep({ at: 'list' })}>
          {text.cancel}
        </button>
        {alert}
      </StepUpForm>
    )
  const shown = rows?.filter((row) => wallet.chain(row.chainId))
  return (
    <div className="wk-stack" data-testid="security">
      <p className="wk-text">{text.intro}</p>
      {!shown && !error && <p className="wk-muted">{text.loading}</p>}
      {shown?.map((row) => {
        const draft = drafts[row.chainId] ?? row.user ?? ''
        const unit = (amount: string) => `${amount} ${row.symbol}`
        return (
          <form
            key={row.chainId}
            className="wk-card wk-stack"
            data-testid={`security-${row.chainId}`}
            onSubmit={(event) => {
              event.preventDefault()
              void save(row, draft.trim())
            }}
          >
            <strong>{wallet.chain(row.chainId)?.name}</strong>
            <span className="wk-text">{row.effective === null ? text.neverAsks : text.asksAbove(unit(row.effective))}</span>
            {row.app !== null && <span className="wk-muted">{text.appRule(unit(row.app))}</span>}
            <label className="wk-muted">
              {text.yourLimit} ({row.symbol})
              <input
                className="wk-input"
                inputMode="decimal"
                value={draft}
                placeholder={text.none}
                disabled={busy}
                onChange={(e) => setDrafts({ ...drafts, [row.chainId]: e.target.value })}
              />
            </label>
            <div className="wk-row wk-row--even">
              <button type="submit" className="wk-button wk-button--primary" disabled={busy || draft.trim() === ''}>
                {busy ? text.saving : text.save}
              </button>
              {row.user !== null && (
                <button type="button" className="wk-button" disabled={busy} onClick={() => void save(row, null)}>
                  {text.remove}
                </button>
              )}
            </div>
          </form>
        )
      })}
      <p className="wk-notice" role="status">
        {notice}
      </p>
      {alert}
    </div>
  )
}
