import { useEffect, useRef, useState } from 'react'
import type { FrameParams } from '../../../bridge/frame-url.ts'
import type { Context } from '../../../sdk/config.ts'
import type { PasskeyCredentialJson } from '../../../sdk/passkeys.ts'
import { startStepUp, verifyStepUp, type StepUpChallenge, type StepUpFactor } from '../../../sdk/wallet/step-up.ts'
import { otpLength } from '../../constants.ts'
import { useWidget } from '../../context.ts'
import { openSecureWindow } from '../../secure/frame-flows.ts'
import type { SecureWindow } from '../../secure/secure-window.ts'
import { StepUpForm } from '../../ui/StepUpForm.tsx'
import { errorText } from '../../use-timed.ts'
import { exportKeyText, failureText } from './export-key-text.ts'
import { walletTokenForWindow } from './fresh-token.ts'

type Step =
  | { at: 'intro' }
  | { at: 'code'; challenge: StepUpChallenge }
  | { at: 'ready'; proof: string; window: 'none' | 'opening' | 'blocked' }
  | { at: 'handed' }
  | { at: 'gone' }

/** Closes the secure window this page opened, if it is still open. */
function closeWindow(popup: { current: SecureWindow | null }) {
  const open = popup.current
  popup.current = null
  if (!open) return
  // Said on the channel too: without a handle (a host page's COOP) that is the only way to reach it.
  void open.channel.post({ type: 'done' }).catch(() => {})
  open.close()
}

/**
 * The profile's 'export-key' page: the risk said plainly, then the service's step-up (the user's
 * passkey when they have one, else a confirmation code to their e-mail), then the secure window, which fetches the key and shows it. The
 * key is never in this frame: a frame in someone else's page can be faded, masked or laid under
 * bait, and no browser lets it prove otherwise everywhere (Firefox and Safari not at all), while a
 * top-level window on the provider's origin cannot be covered. The proof lives only in this
 * component's state until the window said hello; it is then handed over on the channel with the
 * session's wallet token (the proof is bound to that session) and forgotten here. Leaving the page
 * closes the window.
 */
export function ExportKey() {
  const { client, locale, wallet, mode } = useWidget()
  const text = exportKeyText[locale]
  const [step, setStep] = useState<Step>({ at: 'intro' })
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const live = useRef(true)
  const popup = useRef<SecureWindow | null>(null)
  useEffect(
    () => () => {
      live.current = false
      closeWindow(popup)
    },
    [],
  )

  /**
   * The window's URL from what this frame runs with. Its export page reads only the app and the
   * locale; the page's chains play no part there.
   */
  const windowParams = (ctx: Context): FrameParams => ({
    appId: ctx.config.appId ?? '',
    env: ctx.env,
    hostOrigin: wallet.hostOrigin,
    theme: document.documentElement.dataset.theme === 'light' ? 'light' : 'dark',
    locale,
    chains: [],
    mode,
    secureWindow: false,
  })

  /** From the click: its user activation is what lets the browser open the window. */
  function showInWindow(proof: string) {
    const ctx = client.context
    if (!ctx?.tokens.get().walletToken) return setError(text.signedOut)
    closeWindow(popup)
    setError(null)
    setStep({ at: 'ready', proof, window: 'opening' })
    let handed = false
    const opened: SecureWindow = openSecureWindow(windowParams(ctx), {
      message(message) {
        if (message.type !== 'hello' || handed || popup.current !== opened) return
        handed = true
        if (live.current) setStep({ at: 'handed' })
        void walletTokenForWindow(ctx)
          .then((walletToken) => {
            // The page left or the window went meanwhile: no one would read it, and the session
            // would wait unread in the mailbox for the channel's life.
            if (popup.current !== opened) return
            if (!walletToken) throw new Error('signed out')
            return opened.channel.post({ type: 'export-key', walletToken, stepUpProof: proof })
          })
          // Nothing to hand over (the session ended meanwhile): the window has nothing to show.
          .catch(() => {
            closeWindow(popup)
            if (live.current) setStep({ at: 'gone' })
          })
      },
      closed() {
        if (popup.current !== opened) return
        popup.current = null
        // Handed over, the proof is spent or about to be: a new export starts from a new code.
        if (live.current) setStep(handed ? { at: 'gone' } : { at: 'ready', proof, window: 'none' })
      },
      blocked() {
        if (popup.current !== opened) return
        popup.current = null
        if (live.current) setStep({ at: 'ready', proof, window: 'blocked' })
      },
    })
    popup.current = opened
    void opened.channel.post({ type: 'open', purpose: 'export-key', hostOrigin: wallet.hostOrigin }).catch(() => {})
  }

  /** Starts the step-up: a passkey when the user has one (this page runs the ceremony), else an e-mail code. */
  async function send(factors: StepUpFactor[] = ['passkey', 'email']) {
    if (busy) return
    const ctx = client.context
    if (!ctx) return setError(errorText(new Error('The wallet service is not available')))
    setBusy(true)
    setError(null)
    try {
      const challenge = await startStepUp(ctx, { action: 'export-key', factors })
      if (!live.current) return
      setCode('')
      setStep({ at: 'code', challenge })
    } catch (failure) {
      if (live.current) setError(failureText(failure, text))
    } finally {
      if (live.current) setBusy(false)
    }
  }

  /** The typed code or the passkey's assertion, for the challenge. */
  async function verify(challengeId: string, answer: { code: string } | { credential: PasskeyCredentialJson }) {
    if (busy) return
    const ctx = client.context
    if (!ctx) return
    if ('code' in answer && answer.code.length !== otpLength) return setError(text.codeLength)
    setBusy(true)
    setError(null)
    try {
      // The proof stays in this state only, until the secure window takes it.
      const { stepUpProof } = await verifyStepUp(ctx, { challengeId, ...answer })
      if (live.current) setStep({ at: 'ready', proof: stepUpProof, window: 'none' })
    } catch (failure) {
      if (!live.current) return
      setCode('')
      // A passkey's challenge answers once: a refused assertion starts over from the page's start.
      if ('credential' in answer) setStep({ at: 'intro' })
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
  if (step.at === 'ready')
    return (
      <div className="wk-stack" data-testid="export-key-ready">
        <p className="wk-text">{text.windowWhy}</p>
        {step.window === 'blocked' && (
          <p className="wk-error" role="alert" data-testid="secure-window-blocked">
            {text.windowBlocked}
          </p>
        )}
        <button type="button" className="wk-button wk-button--primary" disabled={step.window === 'opening'} onClick={() => showInWindow(step.proof)}>
          {step.window === 'blocked' ? text.tryAgain : text.openWindow}
        </button>
        {alert}
      </div>
    )
  if (step.at === 'handed')
    return (
      <p className="wk-notice" role="status" data-testid="secure-window-open">
        {text.windowOpen}
      </p>
    )
  if (step.at === 'gone')
    return (
      <div className="wk-stack">
        <p className="wk-text" role="status">
          {text.windowClosed}
        </p>
        <button type="button" className="wk-button" onClick={() => setStep({ at: 'intro' })}>
          {text.again}
        </button>
      </div>
    )
  if (step.at === 'code')
    return (
      <StepUpForm
        text={text}
        challenge={step.challenge}
        code={code}
        busy={busy}
        onCode={setCode}
        onVerify={(entered) => void verify(step.challenge.challengeId, { code: entered })}
        onResend={() => void send(['email'])}
        onPasskey={(credential) => void verify(step.challenge.challengeId, { credential })}
        onEmailInstead={() => void send(['email'])}
      >
        {alert}
      </StepUpForm>
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
