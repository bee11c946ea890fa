import type { Locale } from '../../i18n.ts'
import type { CodeFormText } from '../../ui/CodeForm.tsx'

export type SecurityText = CodeFormText & {
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
    intro: 'Ask a confirmation code before a transaction sends more than an amount you choose. The lower of your amount and the app’s applies.',
    asksAbove: (amount) => `Asks a code above ${amount}`,
    neverAsks: 'Never asks a code',
    appRule: (amount) => `This app asks above ${amount}`,
    yourLimit: 'Your amount',
    none: 'None',
    save: 'Save',
    saving: 'Saving…',
    remove: 'Remove',
    saved: 'Saved.',
    looserWhy: 'This lets more through without a code, so confirm it is you first.',
    cancel: 'Cancel',
    sentTo: (where) => `We sent a 6-digit code to ${where}. Enter it to confirm it is you.`,
    codeLabel: 'Confirmation code',
    verify: 'Confirm',
    verifying: 'Checking…',
    resend: 'Send a new code',
    codeLength: 'Enter the 6 digits of the code.',
    badAmount: 'Enter an amount such as 0.5.',
    loading: 'Loading…',
  },
  id: {
    intro:
      'Minta kode konfirmasi sebelum transaksi mengirim lebih dari jumlah yang Anda pilih. Yang berlaku adalah yang lebih rendah antara jumlah Anda dan jumlah aplikasi.',
    asksAbove: (amount) => `Meminta kode di atas ${amount}`,
    neverAsks: 'Tidak pernah meminta kode',
    appRule: (amount) => `Aplikasi ini meminta di atas ${amount}`,
    yourLimit: 'Jumlah Anda',
    none: 'Tidak ada',
    save: 'Simpan',
    saving: 'Menyimpan…',
    remove: 'Hapus',
    saved: 'Tersimpan.',
    looserWhy: 'Ini meloloskan lebih banyak tanpa kode, jadi pastikan dulu bahwa ini Anda.',
    cancel: 'Batal',
    sentTo: (where) => `Kami mengirim kode 6 digit ke ${where}. Masukkan untuk memastikan ini Anda.`,
    codeLabel: 'Kode konfirmasi',
    verify: 'Konfirmasi',
    verifying: 'Memeriksa…',
    resend: 'Kirim kode baru',
    codeLength: 'Masukkan 6 digit kode.',
    badAmount: 'Masukkan jumlah seperti 0.5.',
    loading: 'Memuat…',
  },
}
