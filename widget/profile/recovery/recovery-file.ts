/**
 * What the recovery page takes before it calls anything: the recovery file the wallet offered at
 * creation (a small text file holding the 0x-hex secret) or the secret pasted. The frame refuses
 * anything else itself, with the reason, so a wrong file never reaches the service.
 */

/** The kit's file is 66 bytes; a few lines of notes around the secret still fit. Anything larger is read no further. */
export const maxRecoveryFileBytes = 4096

/** Why a file or a pasted text is not a recovery secret. */
export type RecoveryProblem = 'empty' | 'tooLarge' | 'wrongType' | 'noSecret' | 'severalSecrets'

export type ParsedSecret = { secret0: `0x${string}` } | { problem: RecoveryProblem }

/** A text file, or one the browser could not type (our own extension): an image, a PDF or an archive is refused unread. */
const textLike = (file: { type: string; name?: string }) => file.type === '' || file.type.startsWith('text/') || /\.(walletkit|txt)$/i.test(file.name ?? '')

const secretToken = /^(?:0x)?([0-9a-fA-F]{64})$/

/**
 * The one secret in a text: a whitespace-separated word that is 64 hex digits (0x first, as the
 * file has it; without it, as someone may paste it). Other words (a heading, a note) are allowed; no
 * such word, a truncated or altered one, or two different ones are refused.
 */
export function parseRecoveryText(text: string): ParsedSecret {
  if (text.length > maxRecoveryFileBytes) return { problem: 'tooLarge' }
  // A byte-order mark counts as white space here.
  const words = text.split(/\s+/).filter(Boolean)
  if (words.length === 0) return { problem: 'empty' }
  const found = new Set<string>()
  for (const word of words) {
    const hex = secretToken.exec(word)?.[1]
    if (hex) found.add(hex.toLowerCase())
  }
  if (found.size > 1) return { problem: 'severalSecrets' }
  const [hex] = found
  return hex ? { secret0: `0x${hex}` } : { problem: 'noSecret' }
}

/**
 * Reads a chosen or dropped file: its size and type are checked before a byte is read (a huge file
 * costs nothing), then its bytes must be UTF-8 text (a binary file renamed is not) holding one secret.
 */
export async function readRecoveryFile(file: Blob & { name?: string }): Promise<ParsedSecret> {
  if (file.size === 0) return { problem: 'empty' }
  if (file.size > maxRecoveryFileBytes) return { problem: 'tooLarge' }
  if (!textLike(file)) return { problem: 'wrongType' }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer())
  } catch {
    return { problem: 'wrongType' }
  }
  // Control characters other than line breaks and tabs do not belong in a text file.
  if (/(?![\t\n\r])\p{Cc}/u.test(text)) return { problem: 'wrongType' }
  return parseRecoveryText(text)
}
