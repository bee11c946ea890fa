import type { PasskeyCredentialJson, PasskeyOptionsJson } from '../../sdk/passkeys.ts'

// The browser's half of a passkey ceremony: the service's JSON options turned into what
// navigator.credentials takes (binary fields as bytes), and the credential back into JSON.

/** Why a ceremony ended without a credential; nothing was sent to the service. */
export type PasskeyRefusal = 'cancelled' | 'frame' | 'unsupported' | 'exists'

export class PasskeyNotMade extends Error {
  constructor(readonly reason: PasskeyRefusal) {
    super(`passkey ceremony ended: ${reason}`)
  }
}

const toBytes = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))

const toText = (buffer: ArrayBuffer | null | undefined) =>
  buffer
    ? btoa(String.fromCharCode(...new Uint8Array(buffer)))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '')
    : undefined

type Descriptor = { id: string; type?: string; transports?: string[] }
const descriptors = (list: unknown) => ((list as Descriptor[] | undefined) ?? []).map((d) => ({ ...d, type: 'public-key' as const, id: toBytes(d.id) }))

/**
 * What a refused ceremony means. NotAllowedError is also what a frame gets whose page did not
 * delegate passkeys to it (permissions policy) or an engine that refuses them in a cross-origin
 * frame: that one says so in its message, and the user needs another way, not another try.
 */
function refusal(error: unknown): never {
  const { name, message } = error instanceof Error ? error : { name: '', message: '' }
  if (name === 'NotAllowedError' && /permissions policy|feature is not enabled|cross-origin|user activation/i.test(message)) throw new PasskeyNotMade('frame')
  if (name === 'SecurityError') throw new PasskeyNotMade('frame')
  if (name === 'NotAllowedError' || name === 'AbortError') throw new PasskeyNotMade('cancelled')
  if (name === 'InvalidStateError') throw new PasskeyNotMade('exists')
  if (name === 'NotSupportedError') throw new PasskeyNotMade('unsupported')
  throw error
}

function available() {
  if (typeof PublicKeyCredential === 'undefined' || !navigator.credentials) throw new PasskeyNotMade('unsupported')
}

/** Makes a passkey for the options the service sent (registration). */
export async function createPasskey(options: PasskeyOptionsJson): Promise<PasskeyCredentialJson> {
  available()
  const user = options.user as { id: string; name: string; displayName: string }
  const publicKey = {
    ...options,
    challenge: toBytes(options.challenge),
    user: { ...user, id: toBytes(user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  } as unknown as PublicKeyCredentialCreationOptions
  const credential = (await navigator.credentials.create({ publicKey }).catch(refusal)) as PublicKeyCredential | null
  if (!credential) throw new PasskeyNotMade('cancelled')
  const response = credential.response as AuthenticatorAttestationResponse
  return {
    id: credential.id,
    rawId: toText(credential.rawId) as string,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: toText(response.clientDataJSON),
      attestationObject: toText(response.attestationObject),
      transports: response.getTransports?.() ?? [],
    },
  }
}

/** Asks for any passkey of this site (sign-in; the account is the one the passkey names). */
export async function getPasskey(options: PasskeyOptionsJson): Promise<PasskeyCredentialJson> {
  available()
  const publicKey = {
    ...options,
    challenge: toBytes(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
  } as unknown as PublicKeyCredentialRequestOptions
  const credential = (await navigator.credentials.get({ publicKey }).catch(refusal)) as PublicKeyCredential | null
  if (!credential) throw new PasskeyNotMade('cancelled')
  const response = credential.response as AuthenticatorAssertionResponse
  const userHandle = toText(response.userHandle)
  return {
    id: credential.id,
    rawId: toText(credential.rawId) as string,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: toText(response.clientDataJSON),
      authenticatorData: toText(response.authenticatorData),
      signature: toText(response.signature),
      ...(userHandle ? { userHandle } : {}),
    },
  }
}
