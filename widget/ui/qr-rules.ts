/** Every QR code the widget shows is version 1 to 40, error correction M. */
export const qrErrorCorrection = 'M'

/** The most bytes a version-40 QR code holds at error correction M (byte mode, ISO/IEC 18004 table 7). */
export const qrMaxBytes = 2331

/** The error line for what no QR code of version 1 to 40 can show (nothing, or too much); null when it fits. */
export function qrProblem(data: string): 'No input text' | 'The amount of data is too big to be stored in a QR Code' | null {
  if (data.length === 0) return 'No input text'
  if (new TextEncoder().encode(data).length > qrMaxBytes) return 'The amount of data is too big to be stored in a QR Code'
  return null
}
