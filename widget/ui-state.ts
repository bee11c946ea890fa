import type { View, WalletDescriptor } from '../bridge/index.ts'
import type { Session } from './session.ts'

export type ConnectPage = 'home' | 'wallet' | 'qr-code' | 'whatsapp' | 'otp' | 'wallet-created'

export type UiState = {
  view: View | null
  page: ConnectPage
  history: readonly ConnectPage[]
  direction: 'forward' | 'back'
  /** Where the one-time code went, for the OTP page. */
  otpTarget: { channel: 'email' | 'whatsapp'; to: string; verificationToken: string } | null
  /** Shown once on the wallet-created page; dropped when the modal closes. */
  secret0: string | null
  session: Session | null
  /** Injected wallets the host page discovered. */
  wallets: readonly WalletDescriptor[]
}

export const initialUi: UiState = {
  view: null,
  page: 'home',
  history: [],
  direction: 'forward',
  otpTarget: null,
  secret0: null,
  session: null,
  wallets: [],
}
