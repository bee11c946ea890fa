import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

// A software authenticator for the tests: a P-256 key per credential, 'none' attestation, and the
// answers a browser would send (the toJSON shape of navigator.credentials.create / get), built byte
// by byte as the WebAuthn spec lays them out. Every field a test may want wrong can be overridden.

type Json = Record<string, unknown>
const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

export type SoftCredential = { id: string; privateKey: KeyObject; cose: Uint8Array; userHandle: string; counter: number }

/** What a test may bend in one ceremony's answer. */
export type Bend = {
  origin?: string
  rpId?: string
  challenge?: string
  type?: string
  /** The user-verified flag (default set). */
  userVerified?: boolean
  /** The signature count to report (default: one more than the last). */
  counter?: number
  /** As if in a cross-origin frame under this page. */
  topOrigin?: string
  /** Sign with another credential's key while naming this one. */
  signWith?: SoftCredential
  userHandle?: string | null
  /** Registration: answer with this existing credential (its id and key) instead of a new one. */
  again?: SoftCredential
}

function newCredential(userHandle: string): SoftCredential {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x as string, 'base64url')],
      [-3, Buffer.from(jwk.y as string, 'base64url')],
    ]),
  )
  return { id: b64url(randomBytes(16)), privateKey, cose, userHandle, counter: 0 }
}

export function softwareAuthenticator(defaults: { origin: string; rpId?: string }) {
  const credentials: SoftCredential[] = []
  const rpIdOf = (bend: Bend) => bend.rpId ?? defaults.rpId ?? new URL(defaults.origin).hostname

  const clientData = (kind: 'webauthn.create' | 'webauthn.get', challenge: string, bend: Bend) => {
    const data: Json = { type: bend.type ?? kind, challenge: bend.challenge ?? challenge, origin: bend.origin ?? defaults.origin, crossOrigin: false }
    if (bend.topOrigin) Object.assign(data, { crossOrigin: true, topOrigin: bend.topOrigin })
    return Buffer.from(JSON.stringify(data))
  }

  const flags = (bend: Bend, attested: boolean) => 0x01 | (bend.userVerified === false ? 0 : 0x04) | (attested ? 0x40 : 0)

  const counterBytes = (n: number) => {
    const bytes = Buffer.alloc(4)
    bytes.writeUInt32BE(n)
    return bytes
  }

  return {
    credentials,
    /** Answers registration options (as the service sent them) with a new credential. */
    register(options: Json, bend: Bend = {}): Json {
      const user = options.user as { id: string }
      const credential = bend.again ?? newCredential(user.id)
      const rawId = Buffer.from(credential.id, 'base64url')
      const cose = credential.cose
      const idLength = Buffer.alloc(2)
      idLength.writeUInt16BE(rawId.length)
      const authData = Buffer.concat([
        sha256(rpIdOf(bend)),
        Buffer.from([flags(bend, true)]),
        counterBytes(0),
        Buffer.alloc(16),
        idLength,
        rawId,
        Buffer.from(cose),
      ])
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Uint8Array | Map<string, string>>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', authData],
        ]),
      )
      if (!bend.again) credentials.push(credential)
      return {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge as string, bend)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      }
    },
    /** Answers sign-in options with `credential` (default: the newest one). */
    assert(options: Json, credential = credentials.at(-1), bend: Bend = {}): Json {
      if (!credential) throw new Error('the software authenticator holds no credential')
      // A bent count is this answer's alone; the authenticator's own goes on from where it was.
      const counter = bend.counter ?? ++credential.counter
      const authData = Buffer.concat([sha256(rpIdOf(bend)), Buffer.from([flags(bend, false)]), counterBytes(counter)])
      const data = clientData('webauthn.get', options.challenge as string, bend)
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), (bend.signWith ?? credential).privateKey)
      const userHandle = bend.userHandle === undefined ? credential.userHandle : bend.userHandle
      return {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          ...(userHandle === null ? {} : { userHandle }),
        },
      }
    },
  }
}
