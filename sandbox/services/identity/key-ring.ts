import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose'
import type { Store } from '../../infra/database/store.ts'
import { decrypt, encrypt } from '../../infra/keys.ts'
import { activateKey, deleteKeys, identityKeys, insertKey, sealedKeyOf, type KeyRow } from './queries.ts'

// The provider's identity-token keys (ES256), kept in the database with their private half sealed
// by the master key. At any time there is one key that signs (the newest activated) and one that
// waits, published but unused, so that a verifier that cached the JWKS before the next rotation
// already holds the key it will need. A key that stopped signing stays published until its last
// token has expired (plus a minute for verifiers whose clocks run behind), then it is deleted.

/** How long an identity token is valid: long enough to post to the app's server, short enough that a leaked one soon dies. */
export const identityTokenLifetimeSeconds = 10 * 60
/** A verifier whose clock runs behind still finds a retired key this long after its last token expired. */
const publishedSlackSeconds = 60

type KeyDeps = { store: Store; keys: { masterKey: Uint8Array } }

const sealContext = (kid: string) => `identity-key:${kid}`

/** Only these members of a key are ever published: the public point, its id and use. */
function publicPart(jwk: JWK): JWK {
  const { kty, crv, x, y, kid, alg, use } = jwk
  return { kty, crv, x, y, kid, alg, use }
}

async function makeKey(deps: KeyDeps, active: boolean): Promise<void> {
  const pair = await generateKeyPair('ES256', { extractable: true })
  const privateJwk = await exportJWK(pair.privateKey)
  const point = { kty: privateJwk.kty, crv: privateJwk.crv, x: privateJwk.x, y: privateJwk.y }
  const kid = await calculateJwkThumbprint(point as JWK)
  const sealed = encrypt(deps.keys.masterKey, new TextEncoder().encode(JSON.stringify(privateJwk)), sealContext(kid))
  await insertKey(deps.store, { kid, publicJwk: publicPart({ ...point, kid, alg: 'ES256', use: 'sig' }), sealed, active })
}

type Ring = { current: KeyRow | undefined; next: KeyRow | undefined; published: KeyRow[]; expired: string[] }

function ringOf(rows: readonly KeyRow[], now: number): Ring {
  const activated = rows.filter((row) => row.activatedAt !== null).sort((a, b) => b.activatedAt! - a.activatedAt! || b.createdAt - a.createdAt)
  const waiting = rows.filter((row) => row.activatedAt === null).sort((a, b) => a.createdAt - b.createdAt)
  const published = [...activated.slice(0, 1), ...waiting]
  const expired: string[] = []
  // A key retired when the one after it was activated; its last token expires a lifetime later.
  for (const [index, row] of activated.entries()) {
    if (index === 0) continue
    const retiredAt = activated[index - 1]!.activatedAt!
    if (now < retiredAt + (identityTokenLifetimeSeconds + publishedSlackSeconds) * 1000) published.push(row)
    else expired.push(row.kid)
  }
  return { current: activated[0], next: waiting[0], published, expired }
}

/** The ring with a current and a next key, made on first use. */
async function ring(deps: KeyDeps): Promise<Ring & { current: KeyRow; next: KeyRow }> {
  let keys = ringOf(await identityKeys(deps.store), Date.now())
  if (!keys.current || !keys.next) {
    if (!keys.current) await makeKey(deps, true)
    if (!keys.next) await makeKey(deps, false)
    keys = ringOf(await identityKeys(deps.store), Date.now())
  }
  if (!keys.current || !keys.next) throw new Error('identity keys missing after creation')
  return keys as Ring & { current: KeyRow; next: KeyRow }
}

/** Makes the first keys of a new data folder (at the sandbox's start, so that no request writes them). */
export async function ensureIdentityKeys(deps: KeyDeps): Promise<void> {
  await ring(deps)
}

/** The key that signs now, with its private half unsealed for this one use. */
export async function currentSigningKey(deps: KeyDeps): Promise<{ kid: string; key: CryptoKey | Uint8Array }> {
  const { current } = await ring(deps)
  const sealed = await sealedKeyOf(deps.store, current.kid)
  if (!sealed) throw new Error(`identity key ${current.kid} has no private half`)
  const privateJwk = JSON.parse(new TextDecoder().decode(decrypt(deps.keys.masterKey, sealed, sealContext(current.kid)))) as JWK
  return { kid: current.kid, key: await importJWK(privateJwk, 'ES256') }
}

/** The JWKS: the current key, the next one, and retired ones whose tokens may still be valid. Public members only. */
export async function publishedKeys(deps: KeyDeps): Promise<{ keys: JWK[] }> {
  return { keys: (await ring(deps)).published.map((row) => publicPart(row.publicJwk)) }
}

/**
 * Rotates: the waiting key starts signing, a new one waits, and keys whose tokens have all expired
 * are deleted. Tokens signed before keep verifying until they expire. Answers the new current kid.
 * A provider runs it on a schedule; here tests call it (no route: it writes, and takes no input to refuse).
 */
export async function rotateIdentityKey(deps: KeyDeps): Promise<{ kid: string }> {
  const { next } = await ring(deps)
  await activateKey(deps.store, next.kid)
  await makeKey(deps, false)
  const after = ringOf(await identityKeys(deps.store), Date.now())
  await deleteKeys(deps.store, after.expired)
  return { kid: after.current!.kid }
}
