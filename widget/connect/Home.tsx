import { lazy, Suspense, useRef, useState, type FormEvent } from 'react'
import { emailPattern } from '../constants.ts'
import { useWidget, useStore, useT } from '../context.ts'
import { Logo } from '../ui/Logo.tsx'
import { titleId } from '../ui/Modal.tsx'
import { useSendCode } from './use-send-code.ts'
import { SocialButtons } from './SocialButtons.tsx'
import { WalletShortcuts } from './WalletButtons.tsx'
import { lazyRoute, RouteError } from '../lazy-route.ts'
import { useBadgeGuard } from './use-badge-guard.ts'

/** The username and password form exists but is off by default: loaded only when app config turns it on. */
const PasswordForm = lazy(() => import('./PasswordForm.tsx').then((m) => ({ default: m.PasswordForm })))

/** A frame that signs in through the secure window is the rarer case: its button loads when needed. */
const SecureWindowSignIn = lazyRoute(
  () => import('../secure/SecureWindowButton.tsx'),
  (m) => m.SecureWindowSignIn,
)

/**
 * The connect modal's home. A frame that cannot keep a session (third-party storage blocked) or a
 * host that chose `mode: 'popup'` signs in through the secure window instead (browser wallets stay:
 * they connect in the host page).
 */
export function Home() {
  const { secure, persistent, mode } = useWidget()
  return secure && (!persistent || mode === 'popup') ? <SecureHome /> : <SignInHome />
}

/** The logo and the title every connect home starts with. */
function LoginHeading() {
  const { config } = useWidget()
  const t = useT()
  return (
    <>
      <Logo config={config} />
      <h2 className="wk-heading" id={titleId}>
        {t.loginTitle}
      </h2>
    </>
  )
}

function SecureHome() {
  return (
    <div className="wk-stack wk-center">
      <LoginHeading />
      <SecureWindowSignIn />
      <WalletShortcuts />
    </div>
  )
}

function SignInHome() {
  const { wallet, config } = useWidget()
  const t = useT()
  const [email, setEmail] = useState('')
  const emailInput = useRef<HTMLInputElement>(null)
  useBadgeGuard(emailInput)
  const { send, busy, error } = useSendCode('email', (to) => (emailPattern.test(to) ? null : t.invalidEmail))
  const hasWallets = useStore(wallet.ui, (s) => s.wallets.length > 0)
  const hasSocial = config.whatsapp.enabled || config.google.enabled || config.apple.enabled || config.telegram.enabled
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void send(email.trim())
  }

  return (
    <div className="wk-stack wk-center">
      <LoginHeading />
      <p className="wk-subtitle">{t.loginSubtitle}</p>
      <SocialButtons />
      <WalletShortcuts />
      {(hasWallets || hasSocial) && config.useEmailLogin !== false && (
        // biome-ignore lint/a11y/useSemanticElements: this separator shows its word ('or'), which an <hr> (a void element) cannot hold
        <div className="wk-divider" role="separator">
          {t.or}
        </div>
      )}
      {config.useEmailLogin !== false && (
        <form className="wk-stack wk-full" onSubmit={submit} noValidate>
          <label className="wk-sr-only" htmlFor="wk-email">
            {t.emailLabel}
          </label>
          <input
            id="wk-email"
            ref={emailInput}
            className="wk-input"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder={t.emailPlaceholder}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button className="wk-button wk-button--primary" type="submit" disabled={busy}>
            {busy ? t.sending : t.continue}
          </button>
          <p className="wk-error" role="alert">
            {error}
          </p>
        </form>
      )}
      {config.usernamePassword?.enabled && (
        <RouteError resetKey="password" fallback={null}>
          <Suspense fallback={null}>
            <PasswordForm divider={config.useEmailLogin !== false || hasWallets || hasSocial} />
          </Suspense>
        </RouteError>
      )}
    </div>
  )
}
