import { useRef, useState } from 'react'
import { errorDisplayMs } from '../constants.ts'
import { useWidget } from '../context.ts'
import type { UiState } from '../ui-state.ts'
import { errorText, useTimedMessage } from '../use-timed.ts'

type Channel = NonNullable<UiState['otpTarget']>['channel']

/**
 * Sends a one-time code by e-mail or WhatsApp and moves to the OTP page. Input is checked first
 * (no call when invalid); a second submit while one is in flight is ignored, never a second code sent.
 */
export function useSendCode(channel: Channel, check: (to: string) => string | null) {
  const { wallet, client } = useWidget()
  // The ref guards (two submits in one tick both see the same state); the state shows it.
  const inFlight = useRef(false)
  const [busy, setBusy] = useState(false)
  const [error, showError] = useTimedMessage(errorDisplayMs)

  async function send(to: string) {
    if (inFlight.current) return
    const invalid = check(to)
    if (invalid) return showError(invalid)
    inFlight.current = true
    setBusy(true)
    try {
      const { verificationToken } = channel === 'whatsapp' ? await client.auth.loginWhatsapp({ phoneNumber: to }) : await client.auth.loginOtp({ email: to })
      wallet.setOtpTarget({ channel, to, verificationToken })
      wallet.navigate('otp')
    } catch (err) {
      showError(errorText(err))
    } finally {
      inFlight.current = false
      setBusy(false)
    }
  }
  return { send, busy, error }
}
