import type { Locale } from '../i18n.ts'
import { PasskeyNotMade } from './passkey-ceremony.ts'

// The passkey screens' words, in their own chunk (the frame's first route carries only the menu label).

const en = {
  signIn: 'Sign in with a passkey',
  waiting: 'Waiting for your passkey…',
  intro: 'A passkey signs you in with this device’s screen lock or a security key, without a code.',
  add: 'Add a passkey',
  adding: 'Follow your browser’s steps…',
  added: 'Passkey added.',
  removed: 'Passkey removed.',
  none: 'No passkeys yet.',
  remove: 'Remove',
  list: 'Your passkeys',
  addedOn: (date: string) => `Added ${date}`,
  usedOn: (date: string) => `last used ${date}`,
  signInCancelled: 'Passkey sign-in was cancelled. Nothing was changed.',
  addCancelled: 'Adding a passkey was cancelled. Nothing was saved.',
  frame: 'This browser does not allow passkeys inside this site’s wallet window: use the secure window, or another sign-in method.',
  unsupported: 'This browser does not support passkeys.',
  exists: 'This device already holds a passkey for your account.',
  failed: 'Something went wrong',
}

type PasskeyText = typeof en

const id: PasskeyText = {
  signIn: 'Masuk dengan passkey',
  waiting: 'Menunggu passkey Anda…',
  intro: 'Passkey memasukkan Anda dengan kunci layar perangkat ini atau kunci keamanan, tanpa kode.',
  add: 'Tambah passkey',
  adding: 'Ikuti langkah dari browser Anda…',
  added: 'Passkey ditambahkan.',
  removed: 'Passkey dihapus.',
  none: 'Belum ada passkey.',
  remove: 'Hapus',
  list: 'Passkey Anda',
  addedOn: (date) => `Ditambahkan ${date}`,
  usedOn: (date) => `terakhir dipakai ${date}`,
  signInCancelled: 'Masuk dengan passkey dibatalkan. Tidak ada yang berubah.',
  addCancelled: 'Penambahan passkey dibatalkan. Tidak ada yang disimpan.',
  frame: 'Browser ini tidak mengizinkan passkey di dalam jendela dompet situs ini: gunakan jendela aman, atau cara masuk lain.',
  unsupported: 'Browser ini tidak mendukung passkey.',
  exists: 'Perangkat ini sudah menyimpan passkey untuk akun Anda.',
  failed: 'Terjadi kesalahan',
}

export const passkeyText: Record<Locale, PasskeyText> = { en, id }

/** The line a failed ceremony shows: why the browser ended it, or the service's own message. */
export function passkeyError(error: unknown, text: PasskeyText, cancelled: 'signInCancelled' | 'addCancelled'): string {
  if (error instanceof PasskeyNotMade) return error.reason === 'cancelled' ? text[cancelled] : text[error.reason]
  return error instanceof Error && error.message ? error.message : text.failed
}
