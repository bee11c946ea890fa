import type { Locale } from '../i18n.ts'
import type { StepUpText } from '../ui/StepUpForm.tsx'

type TransactionStepUpText = StepUpText & {
  why: string
  sending: string
  codeLength: string
  noEmail: string
  cancel: string
  tryAgain: string
}

/** The words of a transaction's step-up, in the confirmation's own chunk. */
export const transactionStepUpText: Record<Locale, TransactionStepUpText> = {
  en: {
    why: 'A transaction of this amount needs a second confirmation (your app or your own Security setting asks for it).',
    sending: 'Sending a code…',
    sentTo: (where) => `We sent a 6-digit code to ${where}. Enter it to send the transaction.`,
    codeLabel: 'Confirmation code',
    verify: 'Confirm',
    verifying: 'Checking…',
    resend: 'Send a new code',
    codeLength: 'Enter the 6 digits of the code.',
    noEmail: 'This transaction needs a confirmation with a passkey or a code by e-mail, and this account has neither.',
    cancel: 'Reject',
    tryAgain: 'Try again',
    passkeyAsk: 'Confirm it is you with your passkey to send the transaction.',
    passkeyButton: 'Confirm with your passkey',
    passkeyWaiting: 'Waiting for your passkey…',
    passkeyCancelled: 'The passkey was not used, and nothing was sent. Try again when you are ready.',
    passkeyRefused: 'This browser does not let the wallet use your passkey here, and this account has no e-mail address for a code.',
  },
  id: {
    why: 'Transaksi sebesar ini memerlukan konfirmasi kedua (diminta oleh aplikasi atau pengaturan Keamanan Anda).',
    sending: 'Mengirim kode…',
    sentTo: (where) => `Kami mengirim kode 6 digit ke ${where}. Masukkan untuk mengirim transaksi.`,
    codeLabel: 'Kode konfirmasi',
    verify: 'Konfirmasi',
    verifying: 'Memeriksa…',
    resend: 'Kirim kode baru',
    codeLength: 'Masukkan 6 digit kode.',
    noEmail: 'Transaksi ini memerlukan konfirmasi dengan passkey atau kode lewat e-mail, dan akun ini tidak memiliki keduanya.',
    cancel: 'Tolak',
    tryAgain: 'Coba lagi',
    passkeyAsk: 'Konfirmasi bahwa ini Anda dengan passkey Anda untuk mengirim transaksi.',
    passkeyButton: 'Konfirmasi dengan passkey',
    passkeyWaiting: 'Menunggu passkey Anda…',
    passkeyCancelled: 'Passkey tidak dipakai, dan tidak ada yang dikirim. Coba lagi saat Anda siap.',
    passkeyRefused: 'Peramban ini tidak mengizinkan dompet memakai passkey Anda di sini, dan akun ini tidak memiliki alamat e-mail untuk kode.',
  },
}
