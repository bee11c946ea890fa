import { generateKeyPairSync } from 'node:crypto'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect } from 'vitest'
import { signRampRequest } from '../../../sdk/index.ts'
import { readSeed } from '../app-config/apps.ts'
import { upsertApp } from '../app-config/queries.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// Test set-up for the ramp API's orders and recipients: a real sandbox with two apps, each with its
// RSA-signed ramp client (client-one, client-two), and a signed fetch as either.

const keyPair = () => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  }
}
const keys = { one: keyPair(), two: keyPair() }

export function startRampSandbox() {
  beforeAll(async () => {
    sandbox = await startTestSandbox()
    const demo = readSeed().find((seed) => seed.appId === 'demo')!
    for (const [name, pair] of Object.entries(keys))
      await upsertApp(sandbox.store, {
        ...demo,
        appId: `ramp-${name}`,
        clientSecret: `ramp-${name}-secret`,
        settings: { ...demo.settings, rampableClientSecret: `ramp-${name}-publishable` },
        secrets: { rampClientId: `client-${name}`, rampPublicKey: pair.publicKey },
      })
  })
  afterAll(() => sandbox?.dispose())
  return () => sandbox
}

let sandbox: TestSandbox

let lastTimestamp = 0
/** A distinct timestamp per request: a signed GET or DELETE is usable once per client id and timestamp. */
export const nextTimestamp = () => {
  lastTimestamp = Math.max(lastTimestamp + 1, Date.now())
  return new Date(lastTimestamp).toISOString()
}

// biome-ignore lint/suspicious/noExplicitAny: any JSON the sandbox answers; each test asserts the shape it expects
type Signed = { status: number; body: { status: number; message: string; data: any }; headers: Record<string, string> }

/** An RSA-signed /v1 call as app `who`; answers the response and the headers it sent (to replay them). */
export async function signed(who: keyof typeof keys, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Signed> {
  const sent =
    headers ??
    (await (async () => {
      const signature = await signRampRequest({
        clientId: `client-${who}`,
        privateKey: keys[who].privateKey,
        method: method as 'GET',
        body,
        timestamp: nextTimestamp(),
      })
      return { 'x-client-id': `client-${who}`, 'x-timestamp': signature.timestamp, 'x-signature': signature.signature }
    })())
  const response = await fetch(`${sandbox.url}/v1${path}`, {
    method,
    headers: { ...sent, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  })
  return { status: response.status, body: await response.json(), headers: sent }
}

export const newAddress = () => privateKeyToAccount(generatePrivateKey()).address
export const expect400 = async (answer: Promise<Signed>, message: string | RegExp) => {
  const { status, body } = await answer
  expect(status).toBe(400)
  expect(body.message).toMatch(message)
}
export const count = async (table: string) => (await sandbox.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n

/** Opens a hosted on-ramp page as a browser does: its order token and the browser cookie it was bound to. */
export async function openPage(url: string) {
  const page = await fetch(url)
  const token = /name="order" value="([A-Za-z0-9_-]+)"/.exec(await page.text())![1]!
  return { token, cookie: page.headers.get('set-cookie')!.split(';')[0]! }
}

/** Pays an opened page's order (the page's own form post). */
export const pay = ({ token, cookie }: { token: string; cookie: string }) =>
  fetch(`${sandbox.url}/onramp`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: sandbox.url },
    body: new URLSearchParams({ order: token }).toString(),
  })
