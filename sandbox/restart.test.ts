import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, http, parseEther, verifyMessage, type Address } from 'viem'
import { afterAll, expect, test } from 'vitest'
import { createClient, SdkError } from '../sdk/index.ts'
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

test('a user operation submitted before a stop is bundled after the restart (tracking resumes from the database)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-kit-restart-aa-'))
  // The first sandbox never gets to bundle: its bundler waits ten minutes.
  const first = await createSandbox({ port: 0, anvilPort: 0, dataDir: dir, bundleDelayMs: 600_000 })
  let userOpId: string
  let sender: Address
  try {
    // A user of the app whose smart accounts these are: its wallet signs only that app's operations.
    const smart = { 'x-app-id': 'smart', 'x-client-secret': 'smart-client-secret' }
    const sent = await fetch(`${first.url}/api/v2/auth/login-otp`, {
      method: 'POST',
      headers: { ...headers, ...smart, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=aa-keep@example.com',
    }).then((response) => response.json())
    const [message] = await fetch(`${first.url}/dev/api/inbox?to=aa-keep@example.com`).then((response) => response.json())
    const verified = await post(first.url, '/api/v2/auth/verify-otp', { verificationToken: sent.data.verificationToken, otp: message.code }, undefined, smart)
    const created = await post(first.url, '/api/v2/account/create', {}, verified.data.accessToken, smart)
    const owner = created.data.address[0].address as Address
    const sdk = createClient({ appId: 'smart', env: 'sandbox', clientSecret: 'smart-client-secret', baseUrls: { smartAccount: `${first.url}/api/v1` } })
    const [account] = (await sdk.smartAccount.create({ owner: { id: owner, provider: 'email' } })).accounts
    const built = await sdk.smartAccount.userOp.deploy.hash({ accountId: account!.id, isSponsored: true })
    // The owner's operation signature: the wallet service signs the operation it stored (sign-user-operation).
    const signed = await post(first.url, '/api/v2/wallet/sign-user-operation', { userOpId: built.userOpId }, created.data.walletToken, smart)
    await sdk.smartAccount.userOp.submit({ hash: built.hash, userOpId: built.userOpId!, signature: signed.data.signature, isSponsored: true })
    expect(await sdk.smartAccount.userOp.receipt({ userOpId: built.userOpId! })).toMatchObject({ status: 'submitted' })
    userOpId = built.userOpId!
    sender = account!.aaAddress as Address
  } finally {
    await first.close()
  }

  const second = await createSandbox({ port: 0, anvilPort: 0, dataDir: dir })
  try {
    const sdk = createClient({ appId: 'smart', env: 'sandbox', clientSecret: 'smart-client-secret', baseUrls: { smartAccount: `${second.url}/api/v1` } })
    expect(await sdk.smartAccount.userOp.receipt({ userOpId, wait: true })).toMatchObject({ status: 'included', success: true })
    const client = createPublicClient({ transport: http(`${second.url}/rpc/31337`) })
    expect(await client.getCode({ address: sender })).toBeTruthy()
  } finally {
    await second.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

async function post(url: string, path: string, body: unknown, token?: string, app: Record<string, string> = {}) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...headers, ...app, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  return response.json()
}

test('the sandbox stopped mid-request: the client gets a normalised error, never a hang; restarted, the stored session signs again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-kit-restart-'))
  try {
    const first = await createSandbox({ port: 0, anvilPort: 0, dataDir: dir })
    const port = Number(new URL(first.url).port)
    const api = first.url
    const client = createClient({
      appId: 'demo',
      clientSecret: 'demo-client-secret',
      baseUrls: { wallet: `${api}/api/v2`, appConfig: `${api}/api/v1`, smartAccount: `${api}/api/v1`, ramp: `${api}/v1` },
    })
    let address: Address
    try {
      const sent = await fetch(`${api}/api/v2/auth/login-otp`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=midway@example.com',
      }).then((response) => response.json())
      const [message] = await fetch(`${api}/dev/api/inbox?to=midway@example.com`).then((response) => response.json())
      const verified = await post(api, '/api/v2/auth/verify-otp', { verificationToken: sent.data.verificationToken, otp: message.code })
      const created = await post(api, '/api/v2/account/create', {}, verified.data.accessToken)
      address = created.data.address[0].address
      client.tokens.set({ walletToken: created.data.walletToken })
    } catch (error) {
      await first.close()
      throw error
    }
    // Asked, then the sandbox goes away: answered or a normalised error, never a hang.
    const inFlight = client.wallet.signMessage({ network: 'local-1', message: 'going' }).then(
      () => 'answered',
      (error: unknown) => error,
    )
    await first.close()
    const outcome = await inFlight
    expect(outcome === 'answered' || outcome instanceof SdkError).toBe(true)
    const down = await client.wallet.signMessage({ network: 'local-1', message: 'down' }).catch((error: unknown) => error)
    expect(down).toBeInstanceOf(SdkError)
    expect((down as SdkError).code).toBe('NO_RESPONSE')

    const second = await createSandbox({ port, anvilPort: 0, dataDir: dir })
    try {
      const { signature } = await client.wallet.signMessage({ network: 'local-1', message: 'back' })
      expect(await verifyMessage({ address, message: 'back', signature: signature as `0x${string}` })).toBe(true)
    } finally {
      await second.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
