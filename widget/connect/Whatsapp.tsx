import { useState, type FormEvent } from 'react'
import { phonePattern } from '../constants.ts'
import { useSendCode } from './use-send-code.ts'
import type { Locale } from '../i18n.ts'
import { useWidget, useT } from '../context.ts'

/** The phone field's name (kept here: i18n.ts's English rides in the frame's first route). */
const phoneLabel: Record<Locale, string> = { en: 'Phone number', id: 'Nomor telepon' }

export function Whatsapp() {
  const t = useT()
  const { locale } = useWidget()
  const [phone, setPhone] = useState('')
  const { send, busy, error } = useSendCode('whatsapp', (to) => (phonePattern.test(to) ? null : t.invalidPhone))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void send(phone)
  }

  return (
    <form className="wk-stack" onSubmit={submit} noValidate>
      <p className="wk-text">{t.whatsappHint}</p>
      <label className="wk-sr-only" htmlFor="wk-phone">
        {phoneLabel[locale]}
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
        {busy ? t.sending : t.signIn}
      </button>
      <p className="wk-error" role="alert">
        {error}
      </p>
    </form>
  )
}
