import { decodeJWT, verifyJWT } from '@walletconnect/relay-auth'

/**
 * The `auth` JWT a client puts in its socket URL (`?auth=…`), as sign-client and WalletKit make it
 * (@walletconnect/relay-auth): EdDSA over Ed25519, `iss` the client's did:key (its client id, the
 * name the relay knows it by), `aud` the relay URL the client was given, `exp` a day later. Anyone
 * can make a key, so this proves only that the client holds the key of the id it claims: that is
 * what "never echo a message to its sender" and the per-client limits rest on.
 */
export type RelayAuth = { ok: true; clientId: string } | { ok: false; reason: string }

// relay-auth's own tokens are ~400 characters; anything much longer is not one.
const maxTokenLength = 4096
/** Seconds an `iat` may lie ahead of this clock. */
const clockSkew = 60
/**
 * The longest life a token may have left. Clients make them for a day; one seen in a log or a
 * proxy could otherwise be replayed for as long as its maker chose (years).
 */
const maxTokenLifeSeconds = 7 * 24 * 60 * 60

export async function checkRelayAuth(token: string | null, audiences: readonly string[], now = Date.now()): Promise<RelayAuth> {
  if (!token) return refused('Missing auth token')
  if (token.length > maxTokenLength) return refused('Malformed auth token')
  let payload: { iss?: unknown; aud?: unknown; exp?: unknown; iat?: unknown }
  try {
    // verifyJWT checks the header (EdDSA, JWT), decodes the did:key issuer and checks the signature with it.
    if (!(await verifyJWT(token))) return refused('Invalid auth signature')
    payload = decodeJWT(token).payload as typeof payload
  } catch {
    return refused('Malformed auth token')
  }
  const seconds = now / 1000
  if (typeof payload.iss !== 'string' || !payload.iss.startsWith('did:key:z')) return refused('Auth issuer must be a did:key')
  if (typeof payload.aud !== 'string' || !audiences.includes(payload.aud)) return refused('Auth audience is not this relay')
  if (typeof payload.exp !== 'number' || payload.exp <= seconds) return refused('Auth token expired')
  if (payload.exp > seconds + maxTokenLifeSeconds) return refused('Auth token lives too long')
  if (payload.iat !== undefined && (typeof payload.iat !== 'number' || payload.iat > seconds + clockSkew)) return refused('Auth token issued in the future')
  return { ok: true, clientId: payload.iss }
}

const refused = (reason: string): RelayAuth => ({ ok: false, reason })
