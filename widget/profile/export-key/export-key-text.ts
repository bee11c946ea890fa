import type { Locale } from '../../i18n.ts'
import type { StepUpText } from '../../ui/StepUpForm.tsx'
import { errorText } from '../../use-timed.ts'

export type ExportKeyText = StepUpText & {
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
  hiddenAgain: string
  again: string
  windowWhy: string
  openWindow: string
  windowOpen: string
  windowBlocked: string
  tryAgain: string
  windowClosed: string
  windowTitle: string
  fetching: string
  spent: string
  close: string
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
    noEmail: 'Exporting the key needs a confirmation with a passkey or a code by e-mail, and this account has neither.',
    passkeyAsk: 'Confirm it is you with your passkey.',
    passkeyButton: 'Confirm with your passkey',
    passkeyWaiting: 'Waiting for your passkey…',
    passkeyCancelled: 'The passkey was not used, and nothing changed. Try again when you are ready.',
    passkeyRefused: 'This browser does not let the wallet use your passkey here, and this account has no e-mail address for a code.',
    offline: 'The wallet service could not be reached. Check your connection and try again.',
    signedOut: 'Your session has ended. Sign in again to export the key.',
    keyLabel: 'Private key',
    reveal: 'Reveal',
    hide: 'Hide',
    copy: 'Copy',
    copied: 'Copied. Store it somewhere safe and offline.',
    copyFailed: 'Could not copy. Reveal the key and write it down instead.',
    hiddenSoon: (seconds) => `Hidden again in ${seconds} s`,
    hiddenAgain: 'The key is hidden again and no longer kept in this window.',
    again: 'Export again',
    windowWhy: 'Confirmed. Your key is shown in a separate window of the wallet, which the page you are on cannot cover or read.',
    openWindow: 'Show the key in a secure window',
    windowOpen: 'Your key is shown in the secure window. Close it when you are done.',
    windowBlocked: 'Your browser blocked the secure window. Allow pop-ups for this site, or try again.',
    tryAgain: 'Try again',
    windowClosed: 'The secure window is closed: the key is no longer shown anywhere.',
    windowTitle: 'Your private key',
    fetching: 'Getting your key…',
    spent: 'This confirmation has expired or was already used. Close this window and start the export again in the wallet.',
    close: 'Close',
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
    noEmail: 'Mengekspor kunci memerlukan konfirmasi dengan passkey atau kode lewat e-mail, dan akun ini tidak memiliki keduanya.',
    passkeyAsk: 'Konfirmasi bahwa ini Anda dengan passkey Anda.',
    passkeyButton: 'Konfirmasi dengan passkey',
    passkeyWaiting: 'Menunggu passkey Anda…',
    passkeyCancelled: 'Passkey tidak dipakai, dan tidak ada yang berubah. Coba lagi saat Anda siap.',
    passkeyRefused: 'Peramban ini tidak mengizinkan dompet memakai passkey Anda di sini, dan akun ini tidak memiliki alamat e-mail untuk kode.',
    offline: 'Layanan dompet tidak dapat dihubungi. Periksa koneksi Anda lalu coba lagi.',
    signedOut: 'Sesi Anda telah berakhir. Masuk lagi untuk mengekspor kunci.',
    keyLabel: 'Kunci privat',
    reveal: 'Tampilkan',
    hide: 'Sembunyikan',
    copy: 'Salin',
    copied: 'Disalin. Simpan di tempat yang aman dan offline.',
    copyFailed: 'Tidak dapat menyalin. Tampilkan kunci dan tuliskan.',
    hiddenSoon: (seconds) => `Disembunyikan lagi dalam ${seconds} dtk`,
    hiddenAgain: 'Kunci disembunyikan lagi dan tidak lagi disimpan di jendela ini.',
    again: 'Ekspor lagi',
    windowWhy: 'Terkonfirmasi. Kunci Anda ditampilkan di jendela dompet terpisah, yang tidak dapat ditutupi atau dibaca oleh halaman yang Anda buka.',
    openWindow: 'Tampilkan kunci di jendela aman',
    windowOpen: 'Kunci Anda ditampilkan di jendela aman. Tutup jendela itu setelah selesai.',
    windowBlocked: 'Peramban Anda memblokir jendela aman. Izinkan pop-up untuk situs ini, atau coba lagi.',
    tryAgain: 'Coba lagi',
    windowClosed: 'Jendela aman sudah ditutup: kunci tidak lagi ditampilkan di mana pun.',
    windowTitle: 'Kunci privat Anda',
    fetching: 'Mengambil kunci Anda…',
    spent: 'Konfirmasi ini sudah kedaluwarsa atau sudah dipakai. Tutup jendela ini dan mulai ekspor lagi di dompet.',
    close: 'Tutup',
  },
}

/** What a failed call reads as: no e-mail to send a code to, no network, a session gone; else the service's own words. */
export function failureText(error: unknown, text: ExportKeyText): string {
  const { code } = (error ?? {}) as { code?: unknown }
  if (code === '409') return text.noEmail
  if (code === 'NO_RESPONSE') return text.offline
  if (code === '401' || code === 'TOKEN_REFRESH_FAILED') return text.signedOut
  return errorText(error)
}
