import { generateKeyPairSync } from 'node:crypto'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createClient, signRampRequest, signSmartAccountRequest, type ClientConfig } from '../../sdk/index.ts'
import { readSeed } from './app-config/apps.ts'
import { upsertApp } from './app-config/queries.ts'
import { demoContracts } from '../contracts/deploy.ts'
import { startTestSandbox, type TestSandbox } from '../sandbox.fixture.ts'

// The sdk's own clients against the running sandbox: what the kit sends is what the sandbox takes.

let sandbox: TestSandbox
const logged: string[] = []
const ramp = generateKeyPairSync('rsa', { modulusLength: 2048 })
const rampPrivateKey = ramp.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

beforeAll(async () => {
  // The request log is on, to check that no secret ends up in it.
  vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void logged.push(parts.join(' ')))
  sandbox = await startTestSandbox({ log: true })
  const demo = readSeed().find((seed) => seed.appId === 'demo')!
  await upsertApp(sandbox.store, {
    ...demo,
    appId: 'ramp',
    clientSecret: 'ramp-app-secret',
    settings: { ...demo.settings, isAAEnabled: true, rampableClientSecret: 'ramp-publishable-key' },
    secrets: { rampClientId: 'ramp-client-1', rampPublicKey: ramp.publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  })
})
afterAll(async () => {
  await sandbox?.dispose()
  vi.restoreAllMocks()
})

const sdk = (config: ClientConfig = {}) =>
  createClient({
    appId: 'demo',
    env: 'sandbox',
    baseUrls: { wallet: `${sandbox.url}/api/v2`, smartAccount: `${sandbox.url}/api/v1`, ramp: `${sandbox.url}/v1`, appConfig: `${sandbox.url}/api/v1` },
    ...config,
  })

describe('wallet service through the sdk', () => {
  test('e-mail login, wallet creation and every wallet operation the widget uses', async () => {
    const client = sdk({ clientSecret: 'demo-client-secret' })
    const { verificationToken } = await client.auth.loginOtp({ email: 'sdk@example.com' })
    const [message] = (await (await fetch(`${sandbox.url}/dev/api/inbox?to=sdk@example.com`)).json()) as { code: string }[]
    const login = await client.auth.verifyOtp({ verificationToken, otp: message!.code })
    expect(login.isWalletCreated).toBe(false)
    const created = await client.account.create({ accessToken: login.accessToken! })
    const address = created.address[0]!.address as `0x${string}`

    const { signature } = await client.wallet.signMessage({ network: 'local-1', message: 'from the sdk' })
    expect(await verifyMessage({ address, message: 'from the sdk', signature: signature as `0x${string}` })).toBe(true)
    expect(await client.wallet.balanceCoin({ network: 'local-2' })).toEqual({ balance: '10', symbol: 'ETH', address })
    const estimate = await client.wallet.estimateGas({ network: 'local-1', type: 'send-coin', to: address, amount: '1' })
    expect(estimate.gasLimit).toBe('21000')
    const sent = await client.wallet.sendTransaction({ network: 'local-1', transaction: { from: address, to: address, value: '0.5', data: '0x' } })
    expect(sent.txReceipt).toMatchObject({ status: 'success', chainId: 31337 })
    const tokens = await client.wallet.batchBalanceToken({ network: 'local-1', tokenAddresses: [demoContracts.demoToken.address] })
    expect(tokens.tokens[0]).toMatchObject({ balance: '1000', symbol: 'DEMO', decimals: 18 })

    // A refresh token given with a call comes back rotated with the result (the new wallet token and refresh token).
    const withRefresh = await client.wallet.address({ network: 'local-1', refreshToken: created.refreshToken })
    expect(withRefresh).toMatchObject({ address, walletToken: expect.any(String), refreshToken: expect.any(String) })
    expect(withRefresh.refreshToken).not.toBe(created.refreshToken)

    const config = await client.appConfig.get()
    expect(config.chains.map((chain) => chain.network)).toEqual(['local-1', 'local-2'])

    // One line per request, and none of them carries a code, a token, a secret or a signature.
    expect(logged.some((line) => line.startsWith('POST /api/v2/wallet/sign-message 200'))).toBe(true)
    for (const secret of [
      message!.code,
      verificationToken,
      login.accessToken!,
      created.walletToken,
      created.refreshToken,
      created.secret0,
      signature,
      'demo-client-secret',
    ])
      expect(logged.filter((line) => line.includes(secret))).toEqual([])
  })

  test('a wrong client secret is refused', async () => {
    const client = sdk({ clientSecret: 'not-the-secret' })
    await expect(client.auth.loginOtp({ email: 'x@example.com' })).rejects.toMatchObject({ code: '401', message: 'Invalid client secret' })
  })
})

describe('ramp service signatures', () => {
  test('an RSA-signed client reads references and quotes; the publishable secret works too', async () => {
    const signed = sdk({ appId: 'ramp', rampable: { clientId: 'ramp-client-1', privateKey: rampPrivateKey } })
    const cryptos = (await signed.ramp.reference.cryptos({ transactionType: 'onramp', blockchainType: 'EVM' })) as { id: string }[]
    expect(cryptos.map((crypto) => crypto.id)).toContain('eth-local-1')
    const quote = await signed.ramp.onramp.quote({ amount: 3000, inputCurrency: 'USD', outputCurrency: 'eth-local-1', withLimit: false })
    expect(quote).toMatchObject({ currency: 'USD', coin: 'ETH', amount_in_crypto: '1.00000000', total_received_amount_in_crypto: '0.99000000' })

    const bySecret = sdk({ appId: 'ramp', rampableClientSecret: 'ramp-publishable-key' })
    expect(((await bySecret.ramp.reference.currencies({ limit: 100 })) as { id: string }[]).map((fiat) => fiat.id)).toEqual(['IDR', 'USD', 'EUR'])
  })

  test('a replayed, stale, forged or unsigned request is refused', async () => {
    const url = `${sandbox.url}/v1/reference/banks`
    const signed = await signRampRequest({ clientId: 'ramp-client-1', privateKey: rampPrivateKey, method: 'GET' })
    const headers = { 'x-client-id': 'ramp-client-1', 'x-timestamp': signed.timestamp, 'x-signature': signed.signature }
    expect((await fetch(url, { headers })).status).toBe(200)
    expect(await (await fetch(url, { headers })).json()).toEqual({ status: 401, message: 'Replayed request signature', data: null })

    const stale = await signRampRequest({
      clientId: 'ramp-client-1',
      privateKey: rampPrivateKey,
      method: 'GET',
      timestamp: new Date(Date.now() - 6 * 60_000).toISOString(),
    })
    const staleAnswer = await fetch(url, { headers: { ...headers, 'x-timestamp': stale.timestamp, 'x-signature': stale.signature } })
    expect((await staleAnswer.json()).message).toBe('Request timestamp is outside the 5-minute window')

    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const forged = await signRampRequest({ clientId: 'ramp-client-1', privateKey: other, method: 'GET' })
    const forgedAnswer = await fetch(url, { headers: { ...headers, 'x-timestamp': forged.timestamp, 'x-signature': forged.signature } })
    expect((await forgedAnswer.json()).message).toBe('Invalid request signature')

    // The body is covered: a POST signed for one body does not pass with another.
    const body = { amount: 1 }
    const post = await signRampRequest({ clientId: 'ramp-client-1', privateKey: rampPrivateKey, method: 'POST', body })
    const swapped = await fetch(`${sandbox.url}/v1/onramp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-timestamp': post.timestamp, 'x-signature': post.signature },
      body: JSON.stringify({ amount: 1000 }),
    })
    expect((await swapped.json()).message).toBe('Invalid request signature')

    expect((await fetch(url)).status).toBe(401)
    await expect(sdk({ appId: 'demo', rampableClientSecret: 'wrong' }).ramp.reference.banks(undefined)).rejects.toMatchObject({ code: '401' })
  })
})

describe('smart-account service signatures', () => {
  test('an HMAC-signed request passes authentication (and then meets the service: its owner must be an address)', async () => {
    const client = sdk({ appId: 'ramp', clientSecret: 'ramp-app-secret' })
    await expect(client.smartAccount.create({ owner: { id: 'x', provider: 'email' } } as never)).rejects.toMatchObject({
      code: '400',
      message: 'owner.id must be the owner wallet address',
    })
    const wrong = sdk({ appId: 'ramp', clientSecret: 'wrong-secret' })
    await expect(wrong.smartAccount.create({ owner: { id: 'x', provider: 'email' } } as never)).rejects.toMatchObject({
      code: '401',
      message: 'Invalid request signature',
    })
  })

  test('replays, stale timestamps and unsigned calls from other origins are refused', async () => {
    const body = JSON.stringify({ accountId: 'a' })
    const signed = await signSmartAccountRequest({ clientSecret: 'ramp-app-secret', method: 'POST', path: '/smart-account/balance/native', body })
    const send = (headers: Record<string, string>) =>
      fetch(`${sandbox.url}/api/v1/smart-account/balance/native`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-app-id': 'ramp', ...headers },
      }).then(async (response) => ({ status: response.status, body: await response.json() }))
    const headers = { 'x-timestamp': signed.timestamp, 'x-signature': signed.signature }
    expect((await send(headers)).body.message).toBe('Smart account not found')
    expect((await send(headers)).body.message).toBe('Replayed request signature')
    const stale = await signSmartAccountRequest({
      clientSecret: 'ramp-app-secret',
      method: 'POST',
      path: '/smart-account/balance/native',
      body,
      timestamp: '2020-01-01T00:00:00.000Z',
    })
    expect((await send({ 'x-timestamp': stale.timestamp, 'x-signature': stale.signature })).body.message).toBe(
      'Request timestamp is outside the 5-minute window',
    )
    expect((await send({ 'x-wallet-kit-client': 'wallet-kit-widget', origin: 'https://evil.example' })).body.message).toBe(
      'Unsigned requests are accepted from the wallet kit only',
    )
    // From the kit's own origin the marker passes, but the widget acts only for a signed-in wallet.
    expect((await send({ 'x-wallet-kit-client': 'wallet-kit-widget', origin: sandbox.url })).body.message).toBe('Missing bearer token')
  })
})

describe('chain icons', () => {
  test('known networks get their icon, others the fallback image', async () => {
    const icon = await fetch(`${sandbox.url}/icons/chains/local-2.svg`)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    expect(await icon.text()).toContain('L2')
    const unknown = await fetch(`${sandbox.url}/icons/chains/atlantis.svg`)
    expect(unknown.status).toBe(200)
    expect(unknown.headers.get('x-icon-fallback')).toBe('1')
    expect(await unknown.text()).toBe(await (await fetch(`${sandbox.url}/icons/fallback.svg`)).text())
  })
})
