/**
 * The tests' handle on the recording server. Under vitest.browser.config.ts a globalSetup starts
 * one server and provides its URL; under the root config (Node) each test file starts its own.
 * Every handle works in its own session, so test files running in parallel never see each other.
 */
import { afterAll, inject } from 'vitest'
import type { BaseUrls } from './config.ts'
import type { RecordedRequest, Rule } from './recorder-types.fixture.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    recorderUrl?: string
  }
}

export type Recorder = {
  origin: string
  /** The session's prefix: every scripted path lives below it. */
  base: string
  baseUrls: BaseUrls
  rules(...rules: Rule[]): Promise<void>
  requests(): Promise<RecordedRequest[]>
  reset(): Promise<void>
  /** A URL on which nothing listens (connection refused). */
  deadUrl(): Promise<string>
  hmac(key: string, data: string): Promise<string>
  sha256(data: string): Promise<string>
  rsaKeys(): Promise<{ privateKeyPkcs8: string; privateKeyPkcs1: string; publicKey: string }>
  rsaVerify(publicKey: string, data: string, signature: string): Promise<boolean>
}

export async function openRecorder(): Promise<Recorder> {
  let origin = inject('recorderUrl')
  if (!origin) {
    const { startRecorder } = await import('./recorder-server.fixture.ts')
    const server = await startRecorder()
    afterAll(() => server.close())
    origin = server.url
  }
  const call = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${origin}/__control/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    })
    if (!response.ok) throw new Error(`recorder ${path}: ${response.status} ${await response.text()}`)
    return response.json() as Promise<T>
  }
  const { id } = await call<{ id: string }>('session', {})
  const base = `${origin}/s/${id}`
  return {
    origin,
    base,
    baseUrls: { wallet: `${base}/api/v2`, smartAccount: `${base}/api/v1`, ramp: `${base}/v1`, appConfig: `${base}/api/v1` },
    rules: async (...rules) => void (await call(`s/${id}/rules`, rules)),
    requests: () => call(`s/${id}/requests`),
    reset: async () => void (await call(`s/${id}/reset`, {})),
    deadUrl: async () => (await call<{ url: string }>('dead-url')).url,
    hmac: async (key, data) => (await call<{ signature: string }>('hmac', { key, data })).signature,
    sha256: async (data) => (await call<{ hex: string }>('sha256', { data })).hex,
    rsaKeys: () => call('rsa-keys'),
    rsaVerify: async (publicKey, data, signature) => (await call<{ ok: boolean }>('rsa-verify', { publicKey, data, signature })).ok,
  }
}

/** Shorthand for the single request a test expects the client to have sent. */
export async function onlyRequest(recorder: Recorder): Promise<RecordedRequest> {
  const requests = await recorder.requests()
  if (requests.length !== 1) throw new Error(`expected 1 request, got ${requests.length}: ${requests.map((r) => r.path).join(', ')}`)
  return requests[0]!
}
