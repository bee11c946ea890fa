import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

// scrypt (memory-hard): N = 2^15, r = 8, p = 1 uses 32 MiB and ~50-100 ms per hash on this
// machine, OWASP's recommended floor. Parameters are stored with each hash so they can be raised.
const params = { N: 2 ** 15, r: 8, p: 1 } as const
const keyLength = 32

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  const scryptOptions: ScryptOptions = { ...options, maxmem: 128 * options.N * options.r * options.p + 1024 * 1024 }
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLength, scryptOptions, (error, key) => (error ? reject(error) : resolve(key))),
  )
}

/** `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, params)
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/**
 * A hash of a random password that unknown usernames are checked against, so "no such user" takes
 * as long as "wrong password". Made at once, not on first use: made then, the first unknown name
 * would cost two hashes and stand out. The caller keeps it (password-routes.ts, per sandbox).
 */
export function createDummyHash(): () => Promise<string> {
  const dummy = hashPassword(randomBytes(16).toString('hex'))
  return () => dummy
}
