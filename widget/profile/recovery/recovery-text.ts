import type { Locale } from '../../i18n.ts'
import type { RecoveryProblem } from './recovery-file.ts'

type RecoveryText = {
  intro: string
  chooseFile: string
  dropHint: string
  chosen: (name: string) => string
  pasteLabel: string
  restore: string
  restoring: string
  problems: Record<RecoveryProblem, string>
  pasteProblem: string
  otherWallet: string
  offline: string
  signedOut: string
  restored: string
  done: string
}

/** The recovery page's words, in its own chunk (the frame's first route carries only the menu label). */
export const recoveryText: Record<Locale, RecoveryText> = {
  en: {
    intro: 'Restore this wallet with the recovery file you downloaded when it was created, or paste the recovery secret.',
    chooseFile: 'Choose the recovery file',
    dropHint: 'or drop it here',
    chosen: (name) => `Recovery file: ${name}`,
    pasteLabel: 'Or paste the recovery secret',
    restore: 'Restore',
    restoring: 'Restoring…',
    problems: {
      empty: 'This file is empty. Choose the wallet-recovery-secret file you downloaded.',
      tooLarge: 'This file is too large to be a recovery file.',
      wrongType: 'This is not a recovery file. Choose the wallet-recovery-secret file you downloaded.',
      noSecret: 'This file holds no recovery secret: it may be damaged.',
      severalSecrets: 'This file holds more than one secret. Use the file exactly as you downloaded it.',
    },
    pasteProblem: 'That is not a recovery secret: it is 0x followed by 64 characters 0–9 and a–f.',
    otherWallet: 'This recovery file belongs to another wallet, or it is damaged. Nothing was changed.',
    offline: 'The wallet service could not be reached. Check your connection and try again. Nothing was changed.',
    signedOut: 'Your session has ended. Sign in again, then restore.',
    restored: 'Access restored: this wallet is ready on this device.',
    done: 'Done',
  },
  id: {
    intro: 'Pulihkan dompet ini dengan file pemulihan yang Anda unduh saat dompet dibuat, atau tempel rahasia pemulihan.',
    chooseFile: 'Pilih file pemulihan',
    dropHint: 'atau letakkan di sini',
    chosen: (name) => `File pemulihan: ${name}`,
    pasteLabel: 'Atau tempel rahasia pemulihan',
    restore: 'Pulihkan',
    restoring: 'Memulihkan…',
    problems: {
      empty: 'File ini kosong. Pilih file wallet-recovery-secret yang Anda unduh.',
      tooLarge: 'File ini terlalu besar untuk sebuah file pemulihan.',
      wrongType: 'Ini bukan file pemulihan. Pilih file wallet-recovery-secret yang Anda unduh.',
      noSecret: 'File ini tidak berisi rahasia pemulihan: mungkin rusak.',
      severalSecrets: 'File ini berisi lebih dari satu rahasia. Gunakan file persis seperti yang Anda unduh.',
    },
    pasteProblem: 'Itu bukan rahasia pemulihan: formatnya 0x diikuti 64 karakter 0–9 dan a–f.',
    otherWallet: 'File pemulihan ini milik dompet lain, atau rusak. Tidak ada yang diubah.',
    offline: 'Layanan dompet tidak dapat dihubungi. Periksa koneksi Anda lalu coba lagi. Tidak ada yang diubah.',
    signedOut: 'Sesi Anda telah berakhir. Masuk lagi, lalu pulihkan.',
    restored: 'Akses dipulihkan: dompet ini siap di perangkat ini.',
    done: 'Selesai',
  },
}
