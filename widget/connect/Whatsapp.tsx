import { useState, type FormEvent } from 'react'
import { errorDisplayMs, phonePattern } from '../constants.ts'
import { useWidget } from '../context.ts'
import { errorText, useTimedMessage } from '../use-timed.ts'

export function Whatsapp() {
  const { wallet, client } = useWidget()
  const [phone, setPhone] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, showError] = useTimedMessage(errorDisplayMs)

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (busy) return
    if (!phonePattern.test(phone)) return showError('Invalid phone number')
    setBusy(true)
    try {
      const { verificationToken } = await client.auth.loginWhatsapp({ phoneNumber: phone })
      wallet.ui.set({ otpTarget: { channel: 'whatsapp', to: phone, verificationToken } })
      wallet.navigate('otp')
    } catch (err) {
      showError(errorText(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="wk-stack" onSubmit={submit} noValidate>
      <p className="wk-text">Enter your WhatsApp number with the country code, without the plus sign.</p>
      <label className="wk-sr-only" htmlFor="wk-phone">
        Phone number
      </label>
      <input
        id="wk-phone"
        className="wk-input"
        inputMode="numeric"
        autoComplete="tel"
        placeholder="6281234567890"
        value={phone}
        onChange={(e) => setPhone(e.target.value.replace(/[^\d]/g, ''))}
      />
      <button className="wk-button wk-button--primary" type="submit" disabled={busy}>
        {busy ? 'Sending…' : 'Sign In'}
      </button>
      <p className="wk-error" role="alert">
        {error}
      </p>
    </form>
  )
}
