import type { Locale } from '../i18n.ts'

/**
 * The confirmation's warnings, English and Indonesian: kept with the confirmation (loaded when a
 * request comes), not in i18n.ts, whose English strings ride in the frame's first route (its budget).
 */
const en = {
  /** A transaction's call data. */
  data: 'Data',
  messageInvisible: 'This message contains invisible or control characters, so it is shown as bytes.',
  messageLooksLikeHex: 'This is text that looks like hex. It is signed as these characters, not as the bytes they spell.',
  messageBlindHash:
    'Blind signing: these 32 bytes look like a hash, and signing one can approve a transaction or an operation this screen cannot show you. Sign only if you trust this site completely.',
  typedDataInvisible: 'Invisible or control characters in this data are shown as \\u escapes.',
  signInForeign: (site: string, origin: string) =>
    `This signs you in to ${site}, but the request comes from ${origin}. Signing it could let this site act as you on ${site}.`,
  signInOwn: (site: string) => `Sign in to ${site}: this signature proves to the site that this account is yours.`,
  /** In the secure window, while the wallet on the page asks the step-up for this request. */
  stepUpOnPage: 'This transaction needs a second confirmation: answer it in the wallet on the page. This window closes once the transaction is sent.',
}

export const confirmText: Record<Locale, typeof en> = {
  en,
  id: {
    // The same word in Indonesian.
    data: 'Data',
    messageInvisible: 'Pesan ini berisi karakter tak terlihat atau karakter kontrol, jadi ditampilkan sebagai byte.',
    messageLooksLikeHex: 'Ini teks yang tampak seperti heks. Yang ditandatangani adalah karakter-karakter ini, bukan byte yang dieja.',
    messageBlindHash:
      'Penandatanganan buta: 32 byte ini tampak seperti hash, dan menandatanganinya dapat menyetujui transaksi atau operasi yang tidak dapat ditampilkan layar ini. Tanda tangani hanya jika Anda sepenuhnya memercayai situs ini.',
    typedDataInvisible: 'Karakter tak terlihat atau karakter kontrol dalam data ini ditampilkan sebagai escape \\u.',
    signInForeign: (site: string, origin: string) =>
      `Ini memasukkan Anda ke ${site}, tetapi permintaan datang dari ${origin}. Menandatanganinya dapat membuat situs ini bertindak sebagai Anda di ${site}.`,
    signInOwn: (site: string) => `Masuk ke ${site}: tanda tangan ini membuktikan kepada situs bahwa akun ini milik Anda.`,
    stepUpOnPage: 'Transaksi ini memerlukan konfirmasi kedua: jawab di dompet pada halaman. Jendela ini tertutup setelah transaksi terkirim.',
  },
}
