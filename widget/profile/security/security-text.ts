import type { Locale } from '../../i18n.ts'
import type { StepUpText } from '../../ui/StepUpForm.tsx'

export type SecurityText = StepUpText & {
  intro: string
  asksAbove: (amount: string) => string
  neverAsks: string
  appRule: (amount: string) => string
  yourLimit: string
  none: string
  save: string
  saving: string
  remove: string
  saved: string
  looserWhy: string
  cancel: string
  codeLength: string
  badAmount: string
  loading: string
}

/** The Security page's words, in its own chunk (the frame's first route carries only the menu label). */
export const securityText: Record<Locale, SecurityText> = {
  en: {
    intro:
      'Ask a second confirmation (your passkey, or a code sent by e-mail) before a transaction sends more than an amount you choose. The lower of your amount and the app’s applies.',
    asksAbove: (amount) => `Asks a confirmation above ${amount}`,
    neverAsks: 'Never asks a confirmation',
    appRule: (amount) => `This app asks above ${amount}`,
    yourLimit: 'Your amount',
    none: 'None',
    save: 'Save',
    saving: 'Saving…',
    remove: 'Remove',
    saved: 'Saved.',
    looserWhy: 'This lets more through without a second confirmation, so confirm it is you first.',
    cancel: 'Cancel',
    sentTo: (where) => `We sent a 6-digit code to ${where}. Enter it to confirm it is you.`,
    codeLabel: 'Confirmation code',
    verify: 'Confirm',
    verifying: 'Checking…',
    resend: 'Send a new code',
    codeLength: 'Enter the 6 digits of the code.',
    passkeyAsk: 'Confirm it is you with your passkey.',
    passkeyButton: 'Confirm with your passkey',
    passkeyWaiting: 'Waiting for your passkey…',
    passkeyCancelled: 'The passkey was not used, and nothing changed. Try again when you are ready.',
    passkeyRefused: 'This browser does not let the wallet use your passkey here, and this account has no e-mail address for a code.',
    badAmount: 'Enter an amount such as 0.5.',
    loading: 'Loading…',
  },
  id: {
    intro:
      'Minta konfirmasi kedua (passkey Anda, atau kode lewat e-mail) sebelum transaksi mengirim lebih dari jumlah yang Anda pilih. Yang berlaku adalah yang lebih rendah antara jumlah Anda dan jumlah aplikasi.',
    asksAbove: (amount) => `Meminta konfirmasi di atas ${amount}`,
    neverAsks: 'Tidak pernah meminta konfirmasi',
    appRule: (amount) => `Aplikasi ini meminta di atas ${amount}`,
    yourLimit: 'Jumlah Anda',
    none: 'Tidak ada',
    save: 'Simpan',
    saving: 'Menyimpan…',
    remove: 'Hapus',
    saved: 'Tersimpan.',
    looserWhy: 'Ini meloloskan lebih banyak tanpa konfirmasi kedua, jadi pastikan dulu bahwa ini Anda.',
    cancel: 'Batal',
    sentTo: (where) => `Kami mengirim kode 6 digit ke ${where}. Masukkan untuk memastikan ini Anda.`,
    codeLabel: 'Kode konfirmasi',
    verify: 'Konfirmasi',
    verifying: 'Memeriksa…',
    resend: 'Kirim kode baru',
    codeLength: 'Masukkan 6 digit kode.',
    passkeyAsk: 'Konfirmasi bahwa ini Anda dengan passkey Anda.',
    passkeyButton: 'Konfirmasi dengan passkey',
    passkeyWaiting: 'Menunggu passkey Anda…',
    passkeyCancelled: 'Passkey tidak dipakai, dan tidak ada yang berubah. Coba lagi saat Anda siap.',
    passkeyRefused: 'Peramban ini tidak mengizinkan dompet memakai passkey Anda di sini, dan akun ini tidak memiliki alamat e-mail untuk kode.',
    badAmount: 'Masukkan jumlah seperti 0.5.',
    loading: 'Memuat…',
  },
}
