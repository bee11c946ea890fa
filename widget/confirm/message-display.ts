import { hexToBytes, type Hex } from 'viem'
import { parseSiweMessage } from 'viem/siwe'

/**
 * How a personal_sign message is shown. What is signed is always the exact bytes; the question is
 * only whether showing them as text would tell the user the truth about them.
 * - `text`: valid UTF-8 with nothing hidden in it; shown as text.
 * - `bytes`: not UTF-8, or text that hides characters (controls, bidi overrides, zero-width and other
 *   format characters can make one string read as another); shown as hex, with a warning for the latter.
 * Text that itself reads as hex ("0xdeadbeef") is shown as text with a warning and its bytes, since
 * the user could not otherwise tell it from the bytes 0xdeadbeef. Exactly 32 bytes that are not text
 * are what a hash looks like (of a transaction, an operation, typed data): signing one is blind
 * signing, and it is said so.
 */
export type MessageView =
  | { as: 'text'; shown: string; warning: null }
  | { as: 'text'; shown: string; warning: 'looks-like-hex'; bytes: Hex }
  | { as: 'bytes'; shown: Hex; warning: null | 'invisible' | 'hash' }

/**
 * Characters that do not show as themselves: C0/C1 controls (but tab and line breaks), format
 * characters (bidi overrides and isolates, zero-width space/joiners, BOM, …), line and paragraph
 * separators, private use and unassigned code points, and the Hangul fillers that render as blanks.
 */
const invisible = /(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u
const invisibleAll = new RegExp(invisible.source, 'gu')
const looksLikeHex = /^0x[0-9a-f]*$/i

export function describeMessage(bytes: Hex): MessageView {
  if (bytes === '0x') return { as: 'bytes', shown: bytes, warning: null }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(hexToBytes(bytes))
  } catch {
    return { as: 'bytes', shown: bytes, warning: bytes.length === 66 ? 'hash' : null }
  }
  if (invisible.test(text)) return { as: 'bytes', shown: bytes, warning: 'invisible' }
  if (looksLikeHex.test(text.trim())) return { as: 'text', shown: text, warning: 'looks-like-hex', bytes }
  return { as: 'text', shown: text, warning: null }
}

/** Typed data is JSON: invisible characters inside its strings become `\uXXXX` escapes, which read the same to a parser. */
export function revealInvisible(json: string): { text: string; revealed: boolean } {
  let revealed = false
  const text = json.replace(invisibleAll, (c) => {
    revealed = true
    return [...c].map((u) => `\\u${u.codePointAt(0)!.toString(16).padStart(4, '0')}`).join('')
  })
  return { text, revealed }
}

/** The first `limit` characters (code points) of a message and how many are left out: the caller must say so. */
export function clip(shown: string, limit: number): { visible: string; hidden: number; total: number } {
  const chars = [...shown]
  return { visible: chars.slice(0, limit).join(''), hidden: Math.max(0, chars.length - limit), total: chars.length }
}

const signInPhrase = 'wants you to sign in with your Ethereum account'

/**
 * A sign-in message (EIP-4361) names the site it signs the user in to. Signed for another site than
 * the one asking, it lets the asking site sign in there as the user: the phishing case wallets warn
 * about. Returns the site the message claims when it is not the requesting origin (or cannot be
 * read, for text that uses the sign-in phrase but not the format: a lax verifier may still take it),
 * and null for any other text.
 */
export function foreignSignIn(text: string, hostOrigin: string): string | null {
  if (!text.includes(signInPhrase)) return null
  const { domain, scheme } = parseSiweMessage(text)
  if (!domain) return text.slice(0, text.indexOf(signInPhrase)).trim() || '?'
  let host: URL
  try {
    host = new URL(hostOrigin)
  } catch {
    return domain
  }
  const sameScheme = !scheme || `${scheme}:` === host.protocol
  return domain.toLowerCase() === host.host.toLowerCase() && sameScheme ? null : scheme ? `${scheme}://${domain}` : domain
}

/**
 * The site a well-formed sign-in message (EIP-4361) signs the user in to when it is the requesting
 * page's own (what wallet_connect writes): the confirmation then says it is a sign-in there. Null for
 * any other text, and for a sign-in for another site (foreignSignIn warns about that one).
 */
export function ownSignIn(text: string, hostOrigin: string): string | null {
  if (!text.includes(signInPhrase)) return null
  const { domain, address, nonce } = parseSiweMessage(text)
  return domain && address && nonce && foreignSignIn(text, hostOrigin) === null ? domain : null
}
