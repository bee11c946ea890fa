import type { Locale } from '../../i18n.ts'

type ExportKeyText = {
  intro: string
  risks: readonly string[]
  sendCode: string
  sending: string
  resend: string
  sentTo: (where: string) => string
  codeLabel: string
  verify: string
  verifying: string
  codeLength: string
  noEmail: string
  offline: string
  signedOut: string
  keyLabel: string
  reveal: string
  hide: string
  copy: string
  copied: string
  copyFailed: string
  hiddenSoon: (seconds: number) => string
  notProvable: string
  hiddenAgain: string
  again: string
}

/** The export page's words, in its own chunk (the frame's first route carries only the menu label). */
export const exportKeyText: Record<Locale, ExportKeyText> = {
  en: {
    intro: 'Your private key is the wallet itself. With it, any other wallet app can use this wallet and everything in it.',
    risks: [
      'Anyone who sees or gets it can take all your funds, and nothing can undo that.',
      'Never paste it into a website or share it with anyone, support included: no one will ever ask you for it.',
      'Make sure no one can see your screen.',
    ],
    sendCode: 'Send a confirmation code',
    sending: 'Sending…',
    resend: 'Send a new code',
    sentTo: (where) => `We sent a 6-digit code to ${where}. Enter it to confirm it is you.`,
    codeLabel: 'Confirmation code',
    verify: 'Confirm',
    verifying: 'Checking…',
    codeLength: 'Enter the 6 digits of the code.',
    noEmail: 'Exporting the key needs a confirmation code by e-mail, and this account has no e-mail address.',
    offline: 'The wallet service could not be reached. Check your connection and try again.',
    signedOut: 'Your session has ended. Sign in again to export the key.',
    keyLabel: 'Private key',
    reveal: 'Reveal',
    hide: 'Hide',
    copy: 'Copy',
    copied: 'Copied. Store it somewhere safe and offline.',
    copyFailed: 'Could not copy. Reveal the key and write it down instead.',
    hiddenSoon: (seconds) => `Hidden again in ${seconds} s`,
    notProvable: 'This browser cannot show that the wallet is not covered by the page around it, so the key is not shown here.',
    hiddenAgain: 'The key is hidden again and no longer kept on this page.',
    again: 'Export again',
  },
  id: {
    intro: 'Kunci privat Anda adalah dompet itu sendiri. Dengannya, aplikasi dompet lain dapat memakai dompet ini dan semua isinya.',
    risks: [
      'Siapa pun yang melihat atau mendapatkannya dapat mengambil semua dana Anda, dan itu tidak dapat dibatalkan.',
      'Jangan pernah menempelkannya di situs web atau membagikannya kepada siapa pun, termasuk dukungan: tidak ada yang akan memintanya.',
      'Pastikan tidak ada yang dapat melihat layar Anda.',
    ],
    sendCode: 'Kirim kode konfirmasi',
    sending: 'Mengirim…',
    resend: 'Kirim kode baru',
    sentTo: (where) => `Kami mengirim kode 6 digit ke ${where}. Masukkan untuk memastikan ini Anda.`,
    codeLabel: 'Kode konfirmasi',
    verify: 'Konfirmasi',
    verifying: 'Memeriksa…',
    codeLength: 'Masukkan 6 digit kode.',
    noEmail: 'Mengekspor kunci memerlukan kode konfirmasi lewat e-mail, dan akun ini tidak memiliki alamat e-mail.',
    offline: 'Layanan dompet tidak dapat dihubungi. Periksa koneksi Anda lalu coba lagi.',
    signedOut: 'Sesi Anda telah berakhir. Masuk lagi untuk mengekspor kunci.',
    keyLabel: 'Kunci privat',
    reveal: 'Tampilkan',
    hide: 'Sembunyikan',
    copy: 'Salin',
    copied: 'Disalin. Simpan di tempat yang aman dan offline.',
    copyFailed: 'Tidak dapat menyalin. Tampilkan kunci dan tuliskan.',
    hiddenSoon: (seconds) => `Disembunyikan lagi dalam ${seconds} dtk`,
    notProvable: 'Peramban ini tidak dapat menunjukkan bahwa dompet tidak tertutup oleh halaman di sekitarnya, jadi kunci tidak ditampilkan di sini.',
    hiddenAgain: 'Kunci disembunyikan lagi dan tidak lagi disimpan di halaman ini.',
    again: 'Ekspor lagi',
  },
}
