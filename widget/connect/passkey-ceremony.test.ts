// @vitest-environment happy-dom
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createPasskey, getPasskey, PasskeyNotMade } from './passkey-ceremony.ts'
import { passkeyError, passkeyText } from './passkey-text.ts'

// The browser's half of a ceremony, on a stand-in navigator.credentials: the service's JSON options
// reach it as bytes, its credential comes back as the JSON the service reads, and each way the
// browser can end a ceremony reads as what it means to the user.

const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64url')
const buffer = (bytes: number[]) => new Uint8Array(bytes).buffer

function stubCredentials(credentials: { create?: (o: unknown) => Promise<unknown>; get?: (o: unknown) => Promise<unknown> }) {
  vi.stubGlobal('PublicKeyCredential', class {})
  Object.defineProperty(navigator, 'credentials', { value: credentials, configurable: true })
}

afterEach(() => {
  vi.unstubAllGlobals()
  Object.defineProperty(navigator, 'credentials', { value: undefined, configurable: true })
})

const refused = (name: string, message = '') => Promise.reject(new DOMException(message, name))
const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'made',
    (e: unknown) => (e instanceof PasskeyNotMade ? e.reason : e),
  )

describe('passkey ceremony', () => {
  test('sign-in: the challenge and allowed ids go in as bytes; the assertion comes back base64url', async () => {
    const get = vi.fn(async (_: unknown) => ({
      id: b64([9, 9]),
      rawId: buffer([9, 9]),
      response: { clientDataJSON: buffer([1]), authenticatorData: buffer([2, 3]), signature: buffer([255, 254]), userHandle: buffer([117]) },
    }))
    stubCredentials({ get })
    const answer = await getPasskey({ challenge: b64([250, 251, 252]), rpId: 'localhost', allowCredentials: [{ id: b64([7]), type: 'public-key' }] })
    const { publicKey } = get.mock.calls[0]![0] as { publicKey: { challenge: Uint8Array; rpId: string; allowCredentials: { id: Uint8Array }[] } }
    expect([...publicKey.challenge]).toEqual([250, 251, 252])
    expect([...publicKey.allowCredentials[0]!.id]).toEqual([7])
    expect(publicKey.rpId).toBe('localhost')
    expect(answer).toEqual({
      id: b64([9, 9]),
      rawId: b64([9, 9]),
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: b64([1]), authenticatorData: b64([2, 3]), signature: b64([255, 254]), userHandle: b64([117]) },
    })
  })

  test('registration: the user id goes in as bytes; the attestation and transports come back', async () => {
    const create = vi.fn(async (_: unknown) => ({
      id: b64([4]),
      rawId: buffer([4]),
      response: { clientDataJSON: buffer([5]), attestationObject: buffer([6]), getTransports: () => ['internal'] },
    }))
    stubCredentials({ create })
    const answer = await createPasskey({ challenge: b64([1, 2]), user: { id: b64([117, 49]), name: 'a@example.com', displayName: '' }, excludeCredentials: [] })
    const { publicKey } = create.mock.calls[0]![0] as { publicKey: { user: { id: Uint8Array } } }
    expect([...publicKey.user.id]).toEqual([117, 49])
    expect(answer.response).toEqual({ clientDataJSON: b64([5]), attestationObject: b64([6]), transports: ['internal'] })
  })

  test('a cancel, a frame the engine refuses, a passkey already there, no passkeys at all: each says what it is', async () => {
    const options = { challenge: b64([1]) }
    stubCredentials({ get: () => refused('NotAllowedError', 'The operation either timed out or was not allowed.') })
    expect(await reasonOf(getPasskey(options))).toBe('cancelled')
    stubCredentials({
      get: () =>
        refused('NotAllowedError', "The 'publickey-credentials-get' feature is not enabled in this document. Permissions Policy may be used to delegate…"),
    })
    expect(await reasonOf(getPasskey(options))).toBe('frame')
    stubCredentials({ create: () => refused('InvalidStateError') })
    expect(await reasonOf(createPasskey({ ...options, user: { id: b64([1]) } }))).toBe('exists')
    stubCredentials({ get: () => Promise.resolve(null) })
    expect(await reasonOf(getPasskey(options))).toBe('cancelled')
    vi.unstubAllGlobals()
    expect(await reasonOf(getPasskey(options))).toBe('unsupported')
  })

  test('the lines the user reads: a cancelled sign-in and a cancelled add, in English and Indonesian; a service message as it came', () => {
    const cancelled = new PasskeyNotMade('cancelled')
    expect(passkeyError(cancelled, passkeyText.en, 'signInCancelled')).toBe('Passkey sign-in was cancelled. Nothing was changed.')
    expect(passkeyError(cancelled, passkeyText.en, 'addCancelled')).toBe('Adding a passkey was cancelled. Nothing was saved.')
    expect(passkeyError(new PasskeyNotMade('frame'), passkeyText.id, 'addCancelled')).toMatch(/^Browser ini tidak mengizinkan passkey/)
    expect(passkeyError(new Error('This passkey is not registered with this app'), passkeyText.en, 'signInCancelled')).toBe(
      'This passkey is not registered with this app',
    )
  })
})
