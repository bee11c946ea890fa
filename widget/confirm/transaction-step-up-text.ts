import type { Locale } from '../i18n.ts'
import type { CodeFormText } from '../ui/CodeForm.tsx'

type TransactionStepUpText = CodeFormText & {
  why: string
  sending: string
  codeLength: string
  noEmail: string
  cancel: string
}

/** The words of a transaction's step-up, in the confirmation's own chunk. */
export const transactionStepUpText: Record<Locale, TransactionStepUpText> = {
  en: {
    why: 'This app asks for a confirmation code before a transaction of this amount.',
    sending: 'Sending a code…',
    sentTo: (where) => `We sent a 6-digit code to ${where}. Enter it to send the transaction.`,
    codeLabel: 'Confirmation code',
    verify: 'Confirm',
    verifying: 'Checking…',
    resend: 'Send a new code',
    codeLength: 'Enter the 6 digits of the code.',
    noEmail: 'This transaction needs a confirmation code by e-mail, and this account has no e-mail address.',
    cancel: 'Reject',
  },
  id: {
    why: 'Aplikasi ini meminta kode konfirmasi sebelum transaksi sebesar ini.',
    sending: 'Mengirim kode…',
    sentTo: (where) => `Kami mengirim kode 6 digit ke ${where}. Masukkan untuk mengirim transaksi.`,
    codeLabel: 'Kode konfirmasi',
    verify: 'Konfirmasi',
    verifying: 'Memeriksa…',
    resend: 'Kirim kode baru',
    codeLength: 'Masukkan 6 digit kode.',
    noEmail: 'Transaksi ini memerlukan kode konfirmasi lewat e-mail, dan akun ini tidak memiliki alamat e-mail.',
    cancel: 'Tolak',
  },
}
