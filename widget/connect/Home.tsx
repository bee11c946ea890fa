import { useState, type FormEvent } from 'react'
import { emailPattern, errorDisplayMs } from '../constants.ts'
import { useWidget } from '../context.ts'
import { Logo } from '../ui/Logo.tsx'
import { errorText, useTimedMessage } from '../use-timed.ts'
import { SocialButtons } from './SocialButtons.tsx'
import { WalletShortcuts } from './WalletButtons.tsx'
import { useStore } from '../store.ts'

export function Home() {
  const { wallet, client, config } = useWidget()
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, showError] = useTimedMessage(errorDisplayMs)
  const hasWallets = useStore(wallet.ui, (s) => s.wallets.length > 0)
  const hasSocial = config.whatsapp.enabled || config.google.enabled || config.apple.enabled || config.telegram.enabled

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (busy) return
    const to = email.trim()
    if (!emailPattern.test(to)) return showError('Invalid email')
    setBusy(true)
    try {
      const { verificationToken } = await client.auth.loginOtp({ email: to })
      wallet.ui.set({ otpTarget: { channel: 'email', to, verificationToken } })
      wallet.navigate('otp')
    } catch (err) {
      showError(errorText(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="wk-stack wk-center">
      <Logo logoUrl={config.logoUrl} />
      <h2 className="wk-heading">Login or Sign Up</h2>
      <p className="wk-subtitle">Your gateway to the decentralized world. Simple, Powerful, Yours.</p>
      <SocialButtons />
      <WalletShortcuts />
      {(hasWallets || hasSocial) && config.useEmailLogin !== false && (
        <div className="wk-divider" role="separator">
          OR
        </div>
      )}
      {config.useEmailLogin !== false && (
        <form className="wk-stack wk-full" onSubmit={submit} noValidate>
          <label className="wk-sr-only" htmlFor="wk-email">
            Email
          </label>
          <input
            id="wk-email"
            className="wk-input"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="Enter your email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button className="wk-button wk-button--primary" type="submit" disabled={busy}>
            {busy ? 'Sending…' : 'Continue'}
          </button>
          <p className="wk-error" role="alert">
            {error}
          </p>
        </form>
      )}
    </div>
  )
}
