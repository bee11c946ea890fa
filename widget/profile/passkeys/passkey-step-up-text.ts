import type { Locale } from '../../i18n.ts'
import type { StepUpText } from '../../ui/StepUpForm.tsx'

// The words of the passkeys page's confirmation step, in its own chunk (the frame's first route
// carries only the menu label).

type PasskeyStepUpText = StepUpText & {
  addWhy: string
  removeWhy: (name: string) => string
  sending: string
  cancel: string
  confirmed: string
  create: string
  codeLength: string
}

const en: PasskeyStepUpText = {
  addWhy: 'A passkey can sign in to your wallet. Confirm it is you before adding one.',
  removeWhy: (name) => `Confirm it is you before removing the passkey “${name}”.`,
  sentTo: (where) => `We sent a 6-digit code to ${where}. Enter it to confirm it is you.`,
  codeLabel: 'Confirmation code',
  verify: 'Confirm',
  verifying: 'Checking…',
  resend: 'Send a new code',
  sending: 'Sending a code…',
  cancel: 'Cancel',
  confirmed: 'Confirmed. Now create the passkey with your browser’s steps.',
  create: 'Create the passkey',
  codeLength: 'Enter the 6 digits of the code.',
  passkeyAsk: 'Confirm it is you with one of your passkeys.',
  passkeyButton: 'Confirm with your passkey',
  passkeyWaiting: 'Waiting for your passkey…',
  passkeyCancelled: 'The passkey was not used, and nothing changed. Try again when you are ready.',
  passkeyRefused: 'This browser does not let the wallet use your passkey here, and this account has no e-mail address for a code.',
}

const id: PasskeyStepUpText = {
  addWhy: 'Passkey dapat memasukkan Anda ke dompet. Pastikan ini Anda sebelum menambahkannya.',
  removeWhy: (name) => `Pastikan ini Anda sebelum menghapus passkey “${name}”.`,
  sentTo: (where) => `Kami mengirim kode 6 digit ke ${where}. Masukkan untuk memastikan ini Anda.`,
  codeLabel: 'Kode konfirmasi',
  verify: 'Konfirmasi',
  verifying: 'Memeriksa…',
  resend: 'Kirim kode baru',
  sending: 'Mengirim kode…',
  cancel: 'Batal',
  confirmed: 'Terkonfirmasi. Sekarang buat passkey dengan langkah dari browser Anda.',
  create: 'Buat passkey',
  codeLength: 'Masukkan 6 digit kode.',
  passkeyAsk: 'Konfirmasi bahwa ini Anda dengan salah satu passkey Anda.',
  passkeyButton: 'Konfirmasi dengan passkey',
  passkeyWaiting: 'Menunggu passkey Anda…',
  passkeyCancelled: 'Passkey tidak dipakai, dan tidak ada yang berubah. Coba lagi saat Anda siap.',
  passkeyRefused: 'Peramban ini tidak mengizinkan dompet memakai passkey Anda di sini, dan akun ini tidak memiliki alamat e-mail untuk kode.',
}

export const passkeyStepUpText: Record<Locale, PasskeyStepUpText> = { en, id }
