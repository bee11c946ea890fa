import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, http, parseEther, type Address } from 'viem'
import { afterAll, expect, test } from 'vitest'
import { anvilPackageName, anvilPath } from './infra/anvil/anvil-path.ts'
import { createSandbox } from './server.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'wallet-kit-restart-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

// A back end's calls: the wallet service wants the app's secret from anything but the widget.
const headers = { 'x-app-id': 'demo', 'x-environment': 'development', 'x-client-secret': 'demo-client-secret' }

test('anvil is found for this platform', () => {
  expect(anvilPackageName('linux', 'x64')).toBe('@foundry-rs/anvil-linux-amd64')
  expect(anvilPath()).toMatch(/bin\/anvil(\.exe)?$/)
})

test('users, wallets and balances survive a restart; the data folder is locked while in use', async () => {
  const first = await createSandbox({ port: 0, anvilPort: 0, dataDir })
  let address: Address
  try {
    await expect(createSandbox({ port: 0, anvilPort: 0, dataDir })).rejects.toThrow(/in use by another sandbox/)
    const sent = await fetch(`${first.url}/api/v2/auth/login-otp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=keep@example.com',
    }).then((response) => response.json())
    const [message] = await fetch(`${first.url}/dev/api/inbox?to=keep@example.com`).then((response) => response.json())
    const verified = await post(first.url, '/api/v2/auth/verify-otp', { verificationToken: sent.data.verificationToken, otp: message.code })
    const created = await post(first.url, '/api/v2/account/create', {}, verified.data.accessToken)
    address = created.data.address[0].address
  } finally {
    await first.close()
  }
  // anvil is gone with the sandbox.
  await expect(fetch(first.chains[0]!.rpcUrl, { method: 'POST' })).rejects.toThrow()

  const second = await createSandbox({ port: 0, anvilPort: 0, dataDir })
  try {
    const client = createPublicClient({ transport: http(`${second.url}/rpc/31337`) })
    expect(await client.getBalance({ address })).toBe(parseEther('10'))
    const [message] = await fetch(`${second.url}/dev/api/inbox?to=keep@example.com`).then((response) => response.json())
    expect(message.code).toMatch(/^\d{6}$/)
  } finally {
    await second.close()
  }
})

async function post(url: string, path: string, body: unknown, token?: string) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  return response.json()
}
