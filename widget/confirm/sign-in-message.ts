import { parseSiweMessage } from 'viem/siwe'

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
