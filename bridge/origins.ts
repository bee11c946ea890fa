/**
 * Origin matching, written once for the sandbox (CORS, popups, app config) and the wallet frame
 * (who may talk to it). App config lists allowed origins as CSP source expressions, so the same
 * list feeds `frame-ancestors`: `https://app.example.com`, `http://localhost:*`,
 * `https://*.example.com` (one or more subdomain labels, never example.com itself), `http://[::1]:5173`,
 * or `*` (any http or https origin, as CSP's `*`; never an opaque `null`, a file or an extension).
 *
 * Scheme and host compare case-insensitively, a port that is the scheme's default is the same as
 * none. The origin must be an origin's serialization: no path, query, userinfo or default port
 * (browsers never send one, so anything else is a forgery). A trailing dot makes another host.
 * Hosts are ASCII: a Unicode host reaches us as punycode, and is compared as such.
 */
const sourcePattern = /^(https?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(\d{1,5}|\*))?$/i

/** Whether a string is an origin source expression accepted in app config (no paths, no CSP keywords). */
export const isOriginPattern = (pattern: string): boolean => pattern === '*' || sourcePattern.test(pattern)

/** The parsed origin, when `origin` is exactly an http(s) origin's serialization (any letter case). */
function parseOrigin(origin: string): URL | undefined {
  try {
    const url = new URL(origin)
    return /^https?:$/.test(url.protocol) && url.origin === origin.toLowerCase() ? url : undefined
  } catch {
    return undefined
  }
}

export function originMatches(origin: string, pattern: string): boolean {
  const url = parseOrigin(origin)
  if (!url) return false
  if (pattern === '*') return true
  const parts = sourcePattern.exec(pattern)
  if (!parts) return false
  const [, scheme, wildcard, host, port] = parts
  // The pattern's host and port as the URL parser writes them: lower case, IPv6 compressed, no default port.
  let expected: URL
  try {
    expected = new URL(`${scheme}://${host}${port && port !== '*' ? `:${port}` : ''}`)
  } catch {
    return false // a port out of range, a malformed IPv6 literal
  }
  if (url.protocol !== expected.protocol) return false
  if (wildcard ? !url.hostname.endsWith(`.${expected.hostname}`) : url.hostname !== expected.hostname) return false
  return port === '*' || url.port === expected.port
}

export const isAllowedOrigin = (origin: string, patterns: readonly string[]): boolean => patterns.some((pattern) => originMatches(origin, pattern))
