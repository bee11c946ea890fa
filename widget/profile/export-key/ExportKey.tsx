import { useEffect, useRef, useState } from 'react'
import { exportPrivateKey, startStepUp, verifyStepUp } from '../../../sdk/wallet/step-up.ts'
import { errorDisplayMs, otpLength } from '../../constants.ts'
import { useWidget } from '../../context.ts'
import { CodeForm } from '../../ui/CodeForm.tsx'
import { useConfirmGate } from '../../ui/use-confirm-gate.ts'
import { errorText, useTimedMessage } from '../../use-timed.ts'
import { exportKeyText } from './export-key-text.ts'

type Text = (typeof exportKeyText)['en']
type Hex = `0x${string}`

/** How long a revealed key stays on the page before it is hidden and forgotten. */
export const revealSeconds = 60

/** What a failed call reads as: no e-mail to send a code to, no network, a session gone; else the service's own words. */
function failureText(error: unknown, text: Text): string {
  const { code } = (error ?? {}) as { code?: unknown }
  if (code === '409') return text.noEmail
  if (code === 'NO_RESPONSE') return text.offline
  if (code === '401' || code === 'TOKEN_REFRESH_FAILED') return text.signedOut
  return errorText(error)
}

type Step = { at: 'intro' } | { at: 'code'; challengeId: string; sentTo: string } | { at: 'key'; key: Hex } | { at: 'gone' }

/**
 * The profile's 'export-key' page: the risk said plainly, then a confirmation code to the user's
 * e-mail (the service's step-up), then the wallet's private key behind Reveal and Copy. The key and
 * the step-up proof live only in this component's state and the calls' own variables: never in the
 * frame's store, never on the bridge, never in a log; the key is dropped when the page is left, when
 * the tab is hidden, and `revealSeconds` after it arrived.
 */
export function ExportKey() {
  const { client, locale } = useWidget()
  const text = exportKeyText[locale]
  const [step, setStep] = useState<Step>({ at: 'intro' })
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const live = useRef(true)
  useEffect(
    () => () => {
      live.current = false
    },
    [],
  )

  async function send() {
    if (busy) return
    const ctx = client.context
    if (!ctx) return setError(errorText(new Error('The wallet service is not available')))
    setBusy(true)
    setError(null)
    try {
      const challenge = await startStepUp(ctx, { action: 'export-key' })
      if (!live.current) return
      setCode('')
      setStep({ at: 'code', challengeId: challenge.challengeId, sentTo: challenge.sentTo ?? '' })
    } catch (failure) {
      if (live.current) setError(failureText(failure, text))
    } finally {
      if (live.current) setBusy(false)
    }
  }

  async function verify(challengeId: string, entered: string) {
    if (busy) return
    const ctx = client.context
    if (!ctx) return
    if (entered.length !== otpLength) return setError(text.codeLength)
    setBusy(true)
    setError(null)
    try {
      // The proof is spent at once, from here: it is kept nowhere else.
      const { stepUpProof } = await verifyStepUp(ctx, { challengeId, code: entered })
      const { privateKey } = await exportPrivateKey(ctx, { stepUpProof })
      if (live.current) setStep({ at: 'key', key: privateKey })
    } catch (failure) {
      if (!live.current) return
      setCode('')
      setError(failureText(failure, text))
    } finally {
      if (live.current) setBusy(false)
    }
  }

  const alert = (
    <p className="wk-error" role="alert">
      {error}
    </p>
  )
  if (step.at === 'key') return <KeyView privateKey={step.key} text={text} onGone={() => setStep({ at: 'gone' })} />
  if (step.at === 'gone')
    return (
      <div className="wk-stack">
        <p className="wk-text" role="status">
          {text.hiddenAgain}
        </p>
        <button type="button" className="wk-button" onClick={() => setStep({ at: 'intro' })}>
          {text.again}
        </button>
      </div>
    )
  if (step.at === 'code')
    return (
      <CodeForm
        text={text}
        sentTo={step.sentTo}
        code={code}
        busy={busy}
        onCode={setCode}
        onVerify={(entered) => void verify(step.challengeId, entered)}
        onResend={() => void send()}
      >
        {alert}
      </CodeForm>
    )
  return (
    <div className="wk-stack">
      <p className="wk-text">{text.intro}</p>
      <ul className="wk-card wk-text" style={{ margin: 0, paddingLeft: 28, borderColor: 'var(--wk-warning)' }} data-testid="export-key-risks">
        {text.risks.map((risk) => (
          <li key={risk}>{risk}</li>
        ))}
      </ul>
      <button type="button" className="wk-button wk-button--primary" disabled={busy} onClick={() => void send()}>
        {busy ? text.sending : text.sendCode}
      </button>
      {alert}
    </div>
  )
}

/** What stands in for the key while it is hidden: its shape, blurred, never the key itself. */
const placeholder = `0x${'5f3a9c1e'.repeat(8)}`

/**
 * The key behind Reveal and Copy. Both take a click only when the Confirm gate allows it (ui/
 * use-confirm-gate.ts): the frame seen whole and unobscured, unmoved, for 500 ms. Otherwise a host
 * page could lay the frame under its own bait and have the user copy the key unseen, then ask them
 * to paste it. Forgotten when the tab is hidden and `revealSeconds` after it arrived.
 */
function KeyView({ privateKey, text, onGone }: { privateKey: Hex; text: Text; onGone(): void }) {
  const { presentation } = useWidget()
  const actions = useRef<HTMLDivElement>(null)
  const gate = useConfirmGate(actions, 'export-key', presentation)
  const [shown, setShown] = useState(false)
  // Counted from the key's arrival, not its first reveal: a key never revealed is let go too.
  const [deadline] = useState(() => Date.now() + revealSeconds * 1000)
  const [left, setLeft] = useState(revealSeconds)
  const [notice, showNotice] = useTimedMessage(errorDisplayMs)
  const clear = gate.state === 'clear'

  useEffect(() => {
    const tick = () => {
      const seconds = Math.ceil((deadline - Date.now()) / 1000)
      if (seconds <= 0) onGone()
      else setLeft(seconds)
    }
    const timer = setInterval(tick, 1000)
    return () => clearInterval(timer)
  }, [deadline, onGone])
  useEffect(() => {
    // A hidden tab is a user who walked away: the key is forgotten, not only blurred.
    const away = () => document.visibilityState === 'hidden' && onGone()
    document.addEventListener('visibilitychange', away)
    return () => document.removeEventListener('visibilitychange', away)
  }, [onGone])

  const reveal = () => {
    if (!gate.allows()) return
    setShown(true)
  }
  const copy = () => {
    if (!gate.allows()) return
    void navigator.clipboard.writeText(privateKey).then(
      () => showNotice(text.copied),
      () => showNotice(text.copyFailed),
    )
  }
  return (
    <div className="wk-stack">
      <span className="wk-muted">{text.keyLabel}</span>
      <div className="wk-card" data-testid="export-key-value">
        {shown ? (
          <code className="wk-code">{privateKey}</code>
        ) : (
          <code className="wk-code" aria-hidden="true" style={{ filter: 'blur(5px)', userSelect: 'none' }}>
            {placeholder}
          </code>
        )}
      </div>
      <span className="wk-muted">{text.hiddenSoon(left)}</span>
      {gate.state === 'unsafe' && <p className="wk-text">{text.notProvable}</p>}
      <div className="wk-row wk-row--even" ref={actions}>
        {shown ? (
          <button type="button" className="wk-button" onClick={() => setShown(false)}>
            {text.hide}
          </button>
        ) : (
          <button type="button" className="wk-button" disabled={!clear} onClick={reveal}>
            {text.reveal}
          </button>
        )}
        <button type="button" className="wk-button wk-button--primary" disabled={!clear} onClick={copy}>
          {text.copy}
        </button>
      </div>
      <p className="wk-notice" role="status">
        {notice}
      </p>
    </div>
  )
}
