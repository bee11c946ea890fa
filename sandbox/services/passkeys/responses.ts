import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server'
import { HttpError, type JsonObject } from '../../http/exchange.ts'
import { isOriginAllowed } from '../../http/origins.ts'

// What a browser's credential comes as (its toJSON shape), read field by field: only base64url
// strings of sane sizes reach the verifier, and nothing else rides along.

const base64url = /^[A-Za-z0-9_-]*$/
const transportNames = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])

function b64(value: unknown, key: string, max: number, optional = false): string | undefined {
  if (value === undefined && optional) return undefined
  if (typeof value !== 'string' || value.length === 0) throw new HttpError(400, `${key} is required`)
  if (value.length > max) throw new HttpError(400, `${key} is too long`)
  if (!base64url.test(value)) throw new HttpError(400, `${key} must be base64url`)
  return value
}

function object(value: unknown, key: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, `${key} must be an object`)
  return value as JsonObject
}

function common(body: JsonObject) {
  const credential = object(body.credential, 'credential')
  if (credential.type !== 'public-key') throw new HttpError(400, "credential.type must be 'public-key'")
  const id = b64(credential.id, 'credential.id', 1400) as string
  if (credential.rawId !== id) throw new HttpError(400, 'credential.rawId must equal credential.id')
  return { id, response: object(credential.response, 'credential.response') }
}

export function readRegistration(body: JsonObject): RegistrationResponseJSON {
  const { id, response } = common(body)
  const transports = response.transports
  if (transports !== undefined && (!Array.isArray(transports) || transports.length > 8 || !transports.every((t) => transportNames.has(t as string))))
    throw new HttpError(400, 'credential.response.transports holds an unknown transport')
  return {
    id,
    rawId: id,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64(response.clientDataJSON, 'credential.response.clientDataJSON', 4096) as string,
      attestationObject: b64(response.attestationObject, 'credential.response.attestationObject', 16_384) as string,
      ...(transports ? { transports: transports as AuthenticatorTransport[] } : {}),
    },
  }
}

export function readAssertion(body: JsonObject): AuthenticationResponseJSON {
  const { id, response } = common(body)
  const userHandle = b64(response.userHandle, 'credential.response.userHandle', 128, true)
  return {
    id,
    rawId: id,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64(response.clientDataJSON, 'credential.response.clientDataJSON', 4096) as string,
      authenticatorData: b64(response.authenticatorData, 'credential.response.authenticatorData', 4096) as string,
      signature: b64(response.signature, 'credential.response.signature', 1024) as string,
      ...(userHandle ? { userHandle } : {}),
    },
  }
}

export type ClientData = { challenge: string; topOrigin?: string }

/**
 * The challenge the browser signed (to find and take its stored twin), and the page around the
 * frame when the ceremony ran in one (`topOrigin`): that page must be one the app allows, as it must
 * be to frame the wallet at all.
 */
export function clientDataOf(clientDataJSON: string, allowed: { ownOrigins: readonly string[]; appOrigins: readonly string[] }): ClientData {
  let data: unknown
  try {
    data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'))
  } catch {
    throw new HttpError(400, 'clientDataJSON is not JSON')
  }
  const { challenge, topOrigin, crossOrigin } = object(data, 'clientDataJSON')
  if (typeof challenge !== 'string' || challenge === '' || challenge.length > 256) throw new HttpError(400, 'clientDataJSON holds no challenge')
  if (topOrigin !== undefined) {
    if (typeof topOrigin !== 'string' || crossOrigin !== true) throw new HttpError(400, 'clientDataJSON names a top origin outside a frame')
    if (!allowed.ownOrigins.includes(topOrigin) && !isOriginAllowed(topOrigin, allowed.appOrigins))
      throw new HttpError(403, 'The passkey was used from a page this app does not allow')
    return { challenge, topOrigin }
  }
  return { challenge }
}
