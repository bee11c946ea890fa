/**
 * App config lists allowed origins as CSP source expressions (`https://app.example.com`,
 * `http://localhost:*`). The same list feeds the sandbox's `frame-ancestors` header and this check.
 */
export function originMatches(origin: string, pattern: string): boolean {
  const m = /^(https?):\/\/([^/:]+)(?::(\d+|\*))?$/.exec(pattern.trim())
  if (!m) return false
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.origin !== origin) return false
  const [, scheme, host, port] = m
  if (url.protocol !== `${scheme}:`) return false
  if (host!.startsWith('*.')) {
    if (!url.hostname.endsWith(host!.slice(1))) return false
  } else if (url.hostname !== host) return false
  if (port === '*') return true
  const defaultPort = scheme === 'https' ? '443' : '80'
  return (url.port || defaultPort) === (port ?? defaultPort)
}

export const isAllowedOrigin = (origin: string, patterns: readonly string[]): boolean =>
  patterns.some((p) => originMatches(origin, p))
