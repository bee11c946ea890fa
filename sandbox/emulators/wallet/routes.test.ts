// Attack review of the sandbox mobile wallet's routes (commit f8a0b70): /dev/wallet,
// /dev/api/wallet-config and POST /dev/api/wallets/:address/fund (the faucet's one-time gift).
// Each weakness the review found is now a test of the fix; 'sound:' tests record what was found sound.
import { createPublicClient, http, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

let sandbox: TestSandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const fresh = () => privateKeyToAccount(generatePrivateKey()).address
const balanceOf = (address: `0x${string}`) => createPublicClient({ transport: http(sandbox.chains[0]!.rpcUrl) }).getBalance({ address })
/** As the wallet page asks (JSON, its own origin or none); `headers` replace these. */
const fund = (address: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${sandbox.url}/dev/api/wallets/${address}/fund`, { method: 'POST', headers, body: '{}' })

describe('POST /dev/api/wallets/:address/fund', () => {
  test('sound: a bad address is 400; a plain form post or no body type 415; a second gift to the same address is 409', async () => {
    expect((await fund('0x1234')).status).toBe(400)
    expect((await fund('not-an-address')).status).toBe(400)
    const address = fresh()
    const asForm = await fetch(`${sandbox.url}/dev/api/wallets/${address}/fund`, {
      method: 'POST',
      headers: { origin: sandbox.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    })
    expect(asForm.status).toBe(415)
    expect((await fetch(`${sandbox.url}/dev/api/wallets/${address}/fund`, { method: 'POST', headers: { origin: sandbox.url } })).status).toBe(415)
    expect(await balanceOf(address)).toBe(0n)
    // The gift takes no input but the address: a body with fields is another call, refused.
    const withFields = await fetch(`${sandbox.url}/dev/api/wallets/${address}/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":"1000"}',
    })
    expect(withFields.status).toBe(400)
    expect(await balanceOf(address)).toBe(0n)
    expect((await fund(address)).status).toBe(200)
    expect(await balanceOf(address)).toBe(parseEther('10'))
    expect((await fund(address)).status).toBe(409)
  })

  test("a cross-site POST (another web site's Origin, text/plain) is refused 403 and the faucet pays nothing", async () => {
    // `fetch(url, { method: 'POST', mode: 'no-cors', body: '{}' })` from https://evil.example: sent
    // with this Origin, as text/plain, and no preflight. Every other sandbox route refuses foreign origins (403).
    const address = fresh()
    const answer = await fund(address, { origin: 'https://evil.example', 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' })
    expect(answer.status).toBe(403)
    expect(await balanceOf(address)).toBe(0n)
  })

  test('concurrent calls for one fresh address: one is paid (10 ETH once), the others are 409', async () => {
    const address = fresh()
    const answers = await Promise.all(Array.from({ length: 4 }, () => fund(address)))
    const statuses = answers.map((a) => a.status).sort()
    expect(await balanceOf(address)).toBe(parseEther('10'))
    expect(statuses).toEqual([200, 409, 409, 409])
  })

  test('one client funding address after address is rate-limited (429) before the faucet drains', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 15; i++) statuses.push((await fund(fresh())).status)
    // Any limit the rest of the sandbox uses (per IP, per hour) would refuse some of these.
    expect(statuses).toContain(429)
  })
})

describe("the faucet's reserve", () => {
  // The faucet starts with 10,000 ETH per chain; on-ramp payouts must leave this much (a floor so
  // high that a single gift would break it).
  const reserve = { eth: parseEther('9995') }
  let low: TestSandbox
  beforeAll(async () => {
    low = await startTestSandbox({ faucetReserve: reserve })
  })
  afterAll(() => low?.dispose())

  test('a gift that would take the faucet below its reserve (kept for on-ramp payouts) is 503 and nothing is sent', async () => {
    const address = fresh()
    const answer = await fetch(`${low.url}/dev/api/wallets/${address}/fund`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(answer.status).toBe(503)
    const chain = createPublicClient({ transport: http(low.chains[0]!.rpcUrl) })
    expect(await chain.getBalance({ address: low.faucetAddress })).toBeGreaterThanOrEqual(reserve.eth)
    expect(await chain.getBalance({ address })).toBe(0n)
  })
})

describe('/dev/wallet', () => {
  test('sound: the page (which may carry ?uri=) is sent with no-referrer, cannot be framed, and only talks to its own origin', async () => {
    const answer = await fetch(`${sandbox.url}/dev/wallet/?uri=${encodeURIComponent('wc:abc@2?symKey=00')}`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer')
    const csp = answer.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("default-src 'self'")
    expect(csp).toMatch(/connect-src 'self' ws:\/\/localhost:\d+(;|$)/)
    expect((await fetch(`${sandbox.url}/dev/wallet/assets/..%2F..%2Fpackage.json`)).status).toBe(404)
  })

  test('sound: /dev/wallet?uri= redirects to the page on the same origin, keeping only its own query', async () => {
    const answer = await fetch(`${sandbox.url}/dev/wallet?uri=wc%3Ax`, { redirect: 'manual' })
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe('/dev/wallet/?uri=wc%3Ax')
    const evil = await fetch(`${sandbox.url}/dev/wallet?next=//evil.example`, { redirect: 'manual' })
    expect(new URL(evil.headers.get('location')!, sandbox.url).origin).toBe(sandbox.url)
  })

  test('sound: wallet-config names only public things (relay path, project id, chain RPC paths)', async () => {
    const { body } = await sandbox.call('/dev/api/wallet-config', { app: null })
    expect(body).toEqual({
      relayPath: '/walletconnect',
      projectId: 'wallet-kit-sandbox',
      chains: [
        { chainId: 31337, name: 'Local Chain 1', rpcPath: '/rpc/31337' },
        { chainId: 31338, name: 'Local Chain 2', rpcPath: '/rpc/31338' },
      ],
    })
    expect(JSON.stringify(body)).not.toMatch(/key|secret|token|anvil|8545/i)
  })
})
