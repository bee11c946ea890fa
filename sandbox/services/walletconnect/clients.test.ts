// Two real WalletConnect clients through the relay, as the widget and the sandbox's wallet page use
// them: sign-client 2.25 as the dapp, Reown WalletKit 1.6 (on @walletconnect/core) as the wallet.
import { WalletKit, type WalletKitTypes } from '@reown/walletkit'
import { Core } from '@walletconnect/core'
import { SignClient } from '@walletconnect/sign-client'
import { toHex, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { sandboxProjectId } from './config.ts'
import { startTestRelay, type TestRelay, until } from './relay.fixture.ts'

const chainId = 'eip155:31337'
const account = privateKeyToAccount(generatePrivateKey())
const metadata = (name: string) => ({ name, description: name, url: 'http://localhost', icons: [] })
// @walletconnect/utils' getSdkError values (WalletConnect's error codes).
const userRejected = { code: 5000, message: 'User rejected.' }
const userDisconnected = { code: 6000, message: 'User disconnected.' }
// Nothing may leave the machine: no telemetry, no verify server.
const fetches = vi.spyOn(globalThis, 'fetch')

let relay: TestRelay
let dapp: InstanceType<typeof SignClient>
let wallet: InstanceType<typeof WalletKit>
let session: { topic: string; namespaces: Record<string, { accounts: string[] }> }
let decide: 'approve' | 'reject' = 'approve'
const requests: WalletKitTypes.SessionRequest[] = []

beforeAll(async () => {
  relay = await startTestRelay()
  const suffix = Math.random().toString(36).slice(2)
  const options = { projectId: sandboxProjectId, relayUrl: relay.url, telemetryEnabled: false, logger: 'fatal' }
  // Distinct prefixes: customStoragePrefix also keys a global core singleton, so two clients in one process need two.
  dapp = await SignClient.init({ ...options, customStoragePrefix: `dapp-${suffix}`, metadata: metadata('dapp') })
  const core = new Core({ ...options, customStoragePrefix: `wallet-${suffix}` })
  // WalletKit posts an INIT event to pulse.walletconnect.org even with telemetry off (its engine calls this).
  core.eventClient.init = async () => {}
  wallet = await WalletKit.init({ core, metadata: metadata('wallet') })
  // A browser asks the verify server before each proposal and request (5 s offline); Node does not, but the page will.
  for (const verify of [dapp.core.verify, wallet.core.verify]) verify.register = async () => ''

  wallet.on('session_proposal', async ({ id, params }) => {
    if (decide === 'reject') return wallet.rejectSession({ id, reason: userRejected })
    expect(params.optionalNamespaces.eip155?.chains).toEqual([chainId])
    const namespaces = { eip155: { chains: [chainId], methods: ['personal_sign'], events: ['accountsChanged'], accounts: [`${chainId}:${account.address}`] } }
    await wallet.approveSession({ id, namespaces })
  })
  wallet.on('session_request', async (request) => {
    requests.push(request)
    const [message] = request.params.request.params as [`0x${string}`, string]
    const result = await account.signMessage({ message: { raw: message } })
    await wallet.respondSessionRequest({ topic: request.topic, response: { id: request.id, jsonrpc: '2.0', result } })
  })
})

afterAll(async () => {
  for (const client of [dapp, wallet].filter(Boolean)) {
    await client.core.relayer.transportClose().catch(() => {})
    client.core.heartbeat.stop()
  }
  await relay?.close()
  fetches.mockRestore()
})

const connect = () => dapp.connect({ optionalNamespaces: { eip155: { chains: [chainId], methods: ['personal_sign'], events: ['accountsChanged'] } } })

async function sign(text: string) {
  const message = toHex(text)
  const signature = await dapp.request<`0x${string}`>({
    topic: session.topic,
    chainId,
    request: { method: 'personal_sign', params: [message, account.address] },
  })
  return verifyMessage({ address: account.address, message: { raw: message }, signature })
}

test('the dapp proposes, the wallet pairs from the URI and approves: both hold the session', async () => {
  const { uri, approval } = await connect()
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  await wallet.pair({ uri: uri! })
  session = await approval()
  expect(session.namespaces.eip155?.accounts).toEqual([`${chainId}:${account.address}`])
  expect(Object.keys(wallet.getActiveSessions())).toEqual([session.topic])
  expect(relay.relay.stats().sockets).toBe(2)
})

test('a personal_sign request reaches the wallet and its signature comes back', async () => {
  expect(await sign('Hello from the dapp')).toBe(true)
  expect(requests.at(-1)?.params.request.method).toBe('personal_sign')
})

test('an event from the wallet and a ping from the dapp', async () => {
  const event = new Promise<{ name: string; data: unknown }>((resolve) => dapp.once('session_event', ({ params }) => resolve(params.event)))
  await wallet.emitSessionEvent({ topic: session.topic, chainId, event: { name: 'accountsChanged', data: [account.address] } })
  expect(await event).toEqual({ name: 'accountsChanged', data: [account.address] })
  await dapp.ping({ topic: session.topic })
})

test('a request sent while the wallet is offline waits on the relay and arrives when it reconnects', async () => {
  await wallet.core.relayer.transportClose()
  await until(() => relay.relay.stats().sockets === 1)
  const stored = relay.relay.stats().messages
  const signed = sign('Sent while you were away')
  await until(() => relay.relay.stats().messages > stored)
  const before = requests.length
  await new Promise((resolve) => setTimeout(resolve, 200))
  expect(requests.length).toBe(before)
  await wallet.core.relayer.transportOpen()
  expect(await signed).toBe(true)
})

test('after the relay restarts (sockets dropped, memory empty) both clients reconnect and the session still works', async () => {
  await relay.restart()
  expect(relay.relay.stats().messages).toBe(0)
  await until(() => relay.relay.stats().sockets === 2)
  expect(await sign('After the restart')).toBe(true)
})

test('a proposal the wallet rejects fails the dapp with the rejection', async () => {
  decide = 'reject'
  const { uri, approval } = await connect()
  await wallet.pair({ uri: uri! })
  await expect(approval()).rejects.toMatchObject({ code: userRejected.code })
  decide = 'approve'
})

test('the dapp disconnects: the wallet learns it and drops the session', async () => {
  const deleted = new Promise<string>((resolve) => wallet.once('session_delete', ({ topic }) => resolve(topic)))
  await dapp.disconnect({ topic: session.topic, reason: userDisconnected })
  expect(await deleted).toBe(session.topic)
  expect(wallet.getActiveSessions()).toEqual({})
  expect(fetches).not.toHaveBeenCalled()
})
