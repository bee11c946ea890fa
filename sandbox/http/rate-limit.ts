import { isIPv4, isIPv6 } from 'node:net'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import { HttpError } from './exchange.ts'

// Fixed-window counters in memory: one sandbox process serves the API, so nothing needs sharing.
// Keys are an IP (from the socket, never X-Forwarded-For: the sandbox sits behind no proxy; all of
// loopback is one key and an IPv6 address counts by its /64, see ipKey) or an identifier (e-mail, phone, username, a wallet address).

export type Rule = { max: number; windowMs: number }

/** The limits the auth and on-ramp routes apply; generous for one developer, tight enough to stop a script. */
export type RateLimits = {
  /** Login-code requests (e-mail and WhatsApp) per IP. */
  codesPerIp: Rule
  /** Code checks per IP (each code also dies after 5 wrong tries). */
  verifiesPerIp: Rule
  /** Password, Google, Apple and Telegram logins and registrations per IP. */
  loginsPerIp: Rule
  /**
   * Failed password logins per username and client IP. Not per username alone: then anyone could
   * lock any account by failing its password ten times; this way only the guessing client waits.
   */
  failedLoginsPerNameAndIp: Rule
  /** Hosted on-ramp order pages (GET /onramp, valid or not) per IP. */
  onrampPagesPerIp: Rule
  /** On-ramp orders issued per receiver address. */
  onrampPagesPerReceiver: Rule
  /** On-ramp payment posts (POST /onramp, paid or not) per IP. */
  onrampPaymentsPerIp: Rule
  /** On-ramp payouts attempted per receiver address. */
  onrampPaymentsPerReceiver: Rule
  /** Sessions handed to a frame by its secure window (POST /api/v2/auth/handoff) per IP. */
  handoffsPerIp: Rule
  /** The same per session: each page load of a storage-blocked frame needs one. */
  handoffsPerSession: Rule
  /** Identity tokens minted per session (each costs the key's decryption and a signature). */
  identityTokensPerSession: Rule
  /** Recoveries (POST /api/v2/account/recover, right or wrong) per user: each right one starts a session. */
  recoveriesPerUser: Rule
  /** Faucet gifts to the sandbox mobile wallet (POST /dev/api/wallets/:address/fund) per IP: one per new key. */
  walletGiftsPerIp: Rule
}

const tenMinutes = 10 * 60 * 1000
const hour = 60 * 60 * 1000

export const defaultRateLimits: RateLimits = {
  codesPerIp: { max: 100, windowMs: tenMinutes },
  verifiesPerIp: { max: 300, windowMs: tenMinutes },
  loginsPerIp: { max: 200, windowMs: tenMinutes },
  failedLoginsPerNameAndIp: { max: 10, windowMs: 15 * 60 * 1000 },
  // Each payout is up to ~3.3 ETH (the 10,000 USD maximum): 60 an hour is ~200 ETH, so one script
  // needs ~45 hours to bring a chain's faucet down to its reserve (services/chain/faucet.ts), which it then keeps.
  onrampPagesPerIp: { max: 120, windowMs: hour },
  onrampPagesPerReceiver: { max: 40, windowMs: hour },
  onrampPaymentsPerIp: { max: 60, windowMs: hour },
  onrampPaymentsPerReceiver: { max: 20, windowMs: hour },
  handoffsPerIp: { max: 120, windowMs: hour },
  handoffsPerSession: { max: 60, windowMs: hour },
  // A back end asks for one per sign-in; a page that asks again on each load stays far below this.
  identityTokensPerSession: { max: 120, windowMs: hour },
  // A person restores from their file once in a long while; a script holding the file cannot start sessions without end.
  recoveriesPerUser: { max: 10, windowMs: hour },
  // A person makes a new sandbox wallet key now and then; 10 gifts (100 ETH) an hour keeps a script
  // a long way from the faucet's reserve.
  walletGiftsPerIp: { max: 10, windowMs: hour },
}

export type Limiter = {
  readonly limits: RateLimits
  /** Counts one hit; throws 429 (with Retry-After) once the rule's budget for `key` is spent. */
  hit(rule: keyof RateLimits, key: string): void
  /** Whether `key` is over budget, without counting. */
  check(rule: keyof RateLimits, key: string): void
}

export function createLimiter(overrides: Partial<RateLimits> = {}): Limiter {
  const limits = { ...defaultRateLimits, ...overrides }
  const windows = new Map<string, { count: number; resetAt: number }>()
  let sweepAt = Date.now() + tenMinutes

  const current = (rule: keyof RateLimits, key: string) => {
    const now = Date.now()
    if (now > sweepAt) {
      for (const [id, window] of windows) if (window.resetAt <= now) windows.delete(id)
      sweepAt = now + tenMinutes
    }
    const id = `${rule}\u0000${key}`
    let window = windows.get(id)
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + limits[rule].windowMs }
      windows.set(id, window)
    }
    return window
  }
  const refuse = (resetAt: number) => {
    const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))
    return new HttpError(429, `Too many requests, try again in ${seconds} seconds`, { headers: { 'Retry-After': String(seconds) } })
  }
  return {
    limits,
    hit(rule, key) {
      const window = current(rule, key)
      if (window.count >= limits[rule].max) throw refuse(window.resetAt)
      window.count += 1
    },
    check(rule, key) {
      const window = current(rule, key)
      if (window.count >= limits[rule].max) throw refuse(window.resetAt)
    },
  }
}

/** The caller's per-IP rate-limit key (ipKey) for the address the socket reports. */
export function clientIp(c: Context): string {
  const given = c.get(clientAddressVariable) as string | undefined
  if (given !== undefined) return ipKey(given)
  return ipKey(socketAddress(c))
}

/** The address the request's socket reports ('unknown' when there is none, as in app.request()). */
export function socketAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

/** The context variable a test's Deps.clientAddressOf sets (sandbox/app.ts); clientIp keys on it. */
export const clientAddressVariable = 'clientAddress'

/**
 * The key per-IP limits count under, bucketed the way an attacker's reach is bounded:
 * - all of loopback is one client ('loopback'): a process on this machine can send from any
 *   127.0.0.0/8 address and from ::1, so a key per address would give it 16 million budgets;
 * - an IPv4 address as is (also when a dual-stack socket reports it IPv4-mapped, ::ffff:a.b.c.d);
 * - an IPv6 address by its /64: one subscriber is handed a /64 or more, so keying on the full
 *   address would give a script 2^64 fresh budgets. The zero /64 (::1, ::, the old IPv4-compatible
 *   ::a.b.c.d) reaches only this machine: loopback too.
 * Idempotent: a key given again comes back unchanged. Every per-IP key is made here (clientIp).
 */
export function ipKey(address: string): string {
  if (isIPv4(address)) return address.startsWith('127.') ? loopback : address
  if (!isIPv6(address)) return address
  const parts = hextets(address)
  if (!parts) return address
  if (parts.slice(0, 5).every((part) => part === 0) && parts[5] === 0xffff)
    return ipKey([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff].join('.'))
  if (parts.slice(0, 4).every((part) => part === 0)) return loopback
  return `${parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`
}

/** The one key every loopback address (127.0.0.0/8, ::1) counts under. */
export const loopback = 'loopback'

/** The eight 16-bit groups of a valid IPv6 address (zone dropped, a dotted IPv4 tail converted). */
function hextets(address: string): number[] | undefined {
  let text = address.split('%')[0]!
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const before = head ? head.split(':') : []
  const after = tail ? tail.split(':') : []
  const zeros = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill('0')
  const parts = [...before, ...zeros, ...after].map((part) => Number.parseInt(part, 16))
  return parts.length === 8 && parts.every((part) => part >= 0 && part <= 0xffff) ? parts : undefined
}
