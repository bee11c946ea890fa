// The sandbox mobile wallet's server side: its settings, its page's policy, and the faucet gift it
// asks for once, which no other site can spend.
import { createPublicClient, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../test-sandbox.ts'

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const fund = (address: string, init: { origin?: string; type?: string | null; body?: string } = {}) =>
  fetch(`${sandbox.url}/dev/api/wallets/${address}/fund`, {
    method: 'POST',
    headers: {
      ...(init.origin !== undefined && { origin: init.origin }),
      ...(init.type !== null && { 'content-type': init.type ?? 'application/json' }),
    },
    body: init.body ?? '{}',
  })

test('the wallet page gets its gift once; another site, a form post and a bad address get nothing', async () => {
  const address = privateKeyToAccount(generatePrivateKey()).address
  const chain = createPublicClient({ transport: http(`${sandbox.url}/rpc/31337`) })

  expect((await fund(address, { origin: 'https://evil.example' })).status).toBe(403)
  expect((await fund(address, { origin: sandbox.url, type: 'application/x-www-form-urlencoded', body: 'a=1' })).status).toBe(415)
  expect((await fund(address, { origin: sandbox.url, type: null, body: '' })).status).toBe(415)
  expect((await fund('0x1234', { origin: sandbox.url })).status).toBe(400)
  expect(await chain.getBalance({ address })).toBe(0n)

  const first = await fund(address, { origin: sandbox.url })
  expect(first.status).toBe(200)
  expect(await chain.getBalance({ address })).toBeGreaterThan(0n)
  const again = await fund(address, { origin: sandbox.url })
  expect(again.status).toBe(409)
})

test('its settings name the relay path, the project id and the local chains; its page may reach only its own origin', async () => {
  const config = await (await fetch(`${sandbox.url}/dev/api/wallet-config`)).json()
  expect(config).toEqual({
    relayPath: '/walletconnect',
    projectId: 'wallet-kit-sandbox',
    chains: [
      { chainId: 31337, name: 'Local Chain 1', rpcPath: '/rpc/31337' },
      { chainId: 31338, name: 'Local Chain 2', rpcPath: '/rpc/31338' },
    ],
  })
  const page = await fetch(`${sandbox.url}/dev/wallet/?uri=wc%3Aabc`)
  expect(page.status).toBe(200)
  const policy = page.headers.get('content-security-policy') ?? ''
  expect(policy).toContain("default-src 'self'")
  expect(policy).toContain(`connect-src 'self' ws://${new URL(sandbox.url).host}`)
  expect(policy).toContain("frame-ancestors 'none'")
  // The pairing URI in its address goes to no other site as a referrer.
  expect(page.headers.get('referrer-policy')).toBe('no-referrer')
  expect((await fetch(`${sandbox.url}/dev/wallet/assets/..%2F..%2Fpackage.json`)).status).toBe(404)
})
