// allowedOrigins are CSP source expressions ('https://app.example.com', 'http://localhost:*',
// 'https://*.example.com'), so the same list feeds frame-ancestors and the CORS / Penpal origin checks.

const sourcePattern = /^(https?):\/\/(\*\.)?([a-z0-9.-]+|\[[0-9a-f:]+\])(?::(\d{1,5}|\*))?$/i

/** Whether a string is an origin source expression we accept in app config (no paths, no CSP keywords). */
export function isOriginPattern(pattern: string): boolean {
  return pattern === '*' || sourcePattern.test(pattern)
}

export function matchesOrigin(origin: string, pattern: string): boolean {
  if (pattern === '*') return origin !== 'null'
  const parts = sourcePattern.exec(pattern)
  if (!parts) return false
  const [, scheme, wildcard, host, port] = parts
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.origin !== origin.toLowerCase().replace(/\/$/, '')) return false
  if (url.protocol !== `${scheme?.toLowerCase()}:`) return false
  const hostname = url.hostname.toLowerCase()
  const expected = (host ?? '').toLowerCase()
  if (wildcard ? !hostname.endsWith(`.${expected}`) : hostname !== expected) return false
  if (port === '*') return true
  return url.port === (port ?? '')
}

export function isOriginAllowed(origin: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchesOrigin(origin, pattern))
}
