import { useCallback, useEffect, useRef, useState } from 'react'
import { createPasskeyClient, passkeyRemovalHash, type PasskeyClient, type PasskeyCredentialJson, type PasskeyInfo } from '../../../sdk/passkeys.ts'
import { startStepUp, verifyStepUp, type StepUpAction, type StepUpChallenge, type StepUpFactor } from '../../../sdk/wallet/step-up.ts'
import { createPasskey } from '../../connect/passkey-ceremony.ts'
import { passkeyError, passkeyText } from '../../connect/passkey-text.ts'
import { otpLength } from '../../constants.ts'
import { useStore, useWidget, useT } from '../../context.ts'
import { StepUpForm } from '../../ui/StepUpForm.tsx'
import { PasskeyList } from './PasskeyList.tsx'
import { passkeyStepUpText } from './passkey-step-up-text.ts'

/** The change the user asked for, waiting for its confirmation. */
type Change = { kind: 'add' } | { kind: 'remove'; id: string; name: string }

type Step = { at: 'list' } | { at: 'code'; change: Change; challenge: StepUpChallenge } | { at: 'create'; proof: string }

const actionOf = (change: Change): StepUpAction => (change.kind === 'add' ? 'add-sign-in-method' : 'remove-sign-in-method')

/** A step-up the service cannot ask: the account has no second factor (no e-mail address). */
const noFactor = (error: unknown) => (error as { code?: unknown } | null)?.code === '409'

/**
 * The profile's 'passkeys' page: the embedded wallet's passkeys, each removable, and Add. Adding or
 * removing one changes who can sign in, so each first asks the service's step-up (it refuses the
 * change without the proof): one of the user's passkeys, else a code sent to their e-mail. Add then runs the
 * browser's ceremony from a click of its own (creating a passkey needs a fresh user gesture). Cancel
 * goes back and changes nothing. An account with no e-mail has no code to ask: the change goes
 * straight to the service, which allows it only just after signing in and says so otherwise.
 */
export function Passkeys() {
  const { wallet, client, locale } = useWidget()
  const text = passkeyText[locale]
  const confirmText = passkeyStepUpText[locale]
  const t = useT()
  const embedded = useStore(wallet.ui, (s) => !!s.session && !s.session.walletConnect)
  const [service] = useState<PasskeyClient | null>(() => (client.context ? createPasskeyClient(client.context) : null))
  const [list, setList] = useState<PasskeyInfo[] | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null)
  const [step, setStep] = useState<Step>({ at: 'list' })
  const [code, setCode] = useState('')
  const live = useRef(true)
  useEffect(
    () => () => {
      live.current = false
    },
    [],
  )

  const reload = useCallback(async () => {
    if (!service) return
    const { passkeys } = await service.list()
    if (live.current) setList(passkeys)
  }, [service])
  useEffect(() => {
    reload().catch((error: unknown) => setStatus({ error: true, text: passkeyError(error, text, 'addCancelled') }))
  }, [reload, text])

  // Passkeys sign in to the embedded wallet: a WalletConnect or host-page wallet has none here.
  const ctx = client.context
  if (!embedded || !service || !ctx) return <p className="wk-text">{t.notConnected}</p>

  /**
   * Runs `action`: a line to show (the change was made: back to the list, reloaded), or null (it
   * moved on to a step of its own). A failure is said on the page it happened on, unless `failTo`.
   */
  const run = async (what: string, action: () => Promise<string | null>, failTo?: Step) => {
    setBusy(what)
    setStatus(null)
    try {
      const done = await action()
      if (!live.current || done === null) return
      setStep({ at: 'list' })
      setStatus({ error: false, text: done })
      await reload()
    } catch (error) {
      if (!live.current) return
      if (failTo) setStep(failTo)
      setStatus({ error: true, text: passkeyError(error, text, 'addCancelled') })
    } finally {
      if (live.current) setBusy(null)
    }
  }
  /** The change itself, with the proof (none for an account with no second factor). */
  const apply = async (change: Change, proof?: string): Promise<string> => {
    if (change.kind === 'remove') {
      await service.remove(change.id, proof)
      return text.removed
    }
    const credential = await createPasskey(await service.registrationOptions(proof))
    await service.register(credential)
    return text.added
  }
  /** Asks the step-up for `change`; with no factor to ask, the change goes to the service as it is. */
  const ask = (change: Change, factors: StepUpFactor[] = ['passkey', 'email']) =>
    run(change.kind === 'add' ? 'add' : change.id, async () => {
      try {
        const request = change.kind === 'remove' ? passkeyRemovalHash(change.id) : undefined
        const challenge = await startStepUp(ctx, { action: actionOf(change), factors, ...(request ? { request } : {}) })
        setCode('')
        setStep({ at: 'code', change, challenge })
        return null
      } catch (error) {
        if (!noFactor(error)) throw error
        return apply(change)
      }
    })
  const confirm = async (change: Change, challengeId: string, answer: { code: string } | { credential: PasskeyCredentialJson }) => {
    if (busy !== null) return
    if ('code' in answer && answer.code.length !== otpLength) return setStatus({ error: true, text: confirmText.codeLength })
    setBusy('code')
    setStatus(null)
    let proof: string
    try {
      proof = (await verifyStepUp(ctx, { challengeId, ...answer })).stepUpProof
    } catch (error) {
      if (live.current) {
        setCode('')
        // A passkey's challenge answers once: back to the list, where the change starts anew.
        if ('credential' in answer) setStep({ at: 'list' })
        setStatus({ error: true, text: passkeyError(error, text, 'addCancelled') })
        setBusy(null)
      }
      return
    }
    if (!live.current) return
    setBusy(null)
    // Adding waits for a click of its own: the browser creates a passkey only from a user gesture.
    if (change.kind === 'add') return setStep({ at: 'create', proof })
    // A refused removal leaves the proof spent or useless: back to the list, where Remove starts anew.
    await run(change.id, () => apply(change, proof), { at: 'list' })
  }
  const cancel = () => {
    setStep({ at: 'list' })
    setCode('')
    setStatus(null)
  }

  const statusLine = (
    <p className={status?.error ? 'wk-error' : 'wk-notice'} role={status?.error ? 'alert' : 'status'}>
      {status?.text}
    </p>
  )
  const cancelButton = (
    <button type="button" className="wk-button" disabled={busy !== null} onClick={cancel}>
      {confirmText.cancel}
    </button>
  )

  if (step.at === 'code')
    return (
      <div className="wk-stack" data-testid="passkey-confirm">
        <p className="wk-text">{step.change.kind === 'add' ? confirmText.addWhy : confirmText.removeWhy(step.change.name)}</p>
        <StepUpForm
          text={confirmText}
          challenge={step.challenge}
          code={code}
          busy={busy !== null}
          onCode={setCode}
          onVerify={(entered) => void confirm(step.change, step.challenge.challengeId, { code: entered })}
          onResend={() => void ask(step.change, ['email'])}
          onPasskey={(credential) => void confirm(step.change, step.challenge.challengeId, { credential })}
          onEmailInstead={() => void ask(step.change, ['email'])}
        >
          {cancelButton}
          {statusLine}
        </StepUpForm>
      </div>
    )
  if (step.at === 'create')
    return (
      <div className="wk-stack" data-testid="passkey-confirmed">
        <p className="wk-text">{confirmText.confirmed}</p>
        <button
          type="button"
          className="wk-button wk-button--primary"
          disabled={busy !== null}
          onClick={() => void run('add', () => apply({ kind: 'add' }, step.proof), { at: 'list' })}
        >
          {busy === 'add' ? text.adding : confirmText.create}
        </button>
        {cancelButton}
        {statusLine}
      </div>
    )
  return (
    <div className="wk-stack">
      <p className="wk-text">{text.intro}</p>
      <PasskeyList list={list} loading={list === null && !status} busy={busy} onRemove={(p) => void ask({ kind: 'remove', id: p.id, name: p.name })} />
      <button type="button" className="wk-button wk-button--primary" disabled={busy !== null} onClick={() => void ask({ kind: 'add' })}>
        {busy === 'add' ? confirmText.sending : text.add}
      </button>
      {statusLine}
    </div>
  )
}
