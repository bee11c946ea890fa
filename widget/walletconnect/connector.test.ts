// The frame's WalletConnect connection with a scripted sign-client (./client.ts mocked): what an
// approval connects, what it refuses ('No chains found on connector.' for no account on the app's chains), and a
// session coming back after a reload.
import { afterEach, expect, test, vi } from 'vitest'
import type { ChainClient } from '../../sdk/index.ts'
import { testWallet } from '../wallet.fixture.ts'
import type { ApprovedSession } from './client.ts'
import { createConnector, siteKey } from './connector.ts'
import { memoryStorage, topicKey } from './storage.ts'

const script = vi.hoisted(() => ({
  approve: null as null | ((s: { session: ApprovedSession | null; topic: string }) => void),
  stored: null as ApprovedSession | null,
  disconnected: [] as string[],
}))

vi.mock('./client.ts', async (original) => ({
  ...(await original<typeof import('./client.ts')>()),
  openWalletConnect: async () => ({
    client: { on() {} },
    pair: async () => ({ uri: `wc:${'a'.repeat(64)}@2`, approval: new Promise((resolve) => (script.approve = resolve)) }),
    restore: (topic: string) => (script.stored?.topic === topic ? script.stored : null),
    request: async () => '0x',
    async disconnect(topic: string) {
      script.disconnected.push(topic)
    },
  }),
}))

afterEach(() => {
  script.approve = null
  script.stored = null
  script.disconnected.length = 0
})

const A = '0x00000000000000000000000000000000000000A1' as const
const topic = 'e'.repeat(64)

async function frame() {
  const t = testWallet()
  await t.wallet.restore()
  const storage = memoryStorage()
  const connector = createConnector({
    wallet: t.wallet,
    config: { relayUrl: 'ws://127.0.0.1:1/walletconnect', projectId: 'p', testWallet: null },
    appName: 'Demo',
    storage,
    rpc: () => ({}) as ChainClient,
  })
  return { ...t, storage, connector }
}

test("an approval with no account on the app's chains is 'No chains found on connector.': the wallet's session is ended, nothing connects", async () => {
  for (const session of [null, { topic, address: A, chainIds: [1, 137], peer: 'Phone' }]) {
    const t = await frame()
    const pairing = await t.connector.pair()
    script.approve!({ session, topic })
    await expect(pairing.approval).rejects.toThrow('No chains found on connector.')
    expect(script.disconnected).toEqual([topic])
    expect(t.wallet.ui.get().session).toBeNull()
    expect(await t.storage.getItem(topicKey)).toBeUndefined()
    script.disconnected.length = 0
  }
})

test('an approval connects the wallet on the chains both offer, and is remembered for the next load', async () => {
  const t = await frame()
  const pairing = await t.connector.pair()
  script.approve!({ session: { topic, address: A, chainIds: [1, 31338], peer: 'Phone' }, topic })
  await pairing.approval
  expect(t.wallet.ui.get().session).toEqual({ address: A, walletConnect: { peer: 'Phone' } })
  // The wallet does not offer 31337: the frame moved to the chain it does.
  expect(t.wallet.chainId()).toBe(31338)
  expect(await t.storage.getItem(topicKey)).toBe(topic)
  expect(await t.storage.getItem(siteKey)).toBe('http://127.0.0.1:5173')
})

test('after a reload: the stored session is taken up; one the wallet ended meanwhile is forgotten', async () => {
  const t = await frame()
  await t.storage.setItem(topicKey, topic)
  await t.storage.setItem(siteKey, 'http://127.0.0.1:5173')
  // The app's two chains, both approved by the wallet.
  script.stored = { topic, address: A, chainIds: [31337, 31338], peer: 'Phone' }
  await t.connector.restore(topic)
  expect(t.wallet.ui.get().session).toEqual({ address: A, walletConnect: { peer: 'Phone' } })
  expect(t.connector.account().address).toBe(A)

  const gone = await frame()
  await gone.storage.setItem(topicKey, topic)
  await gone.storage.setItem(siteKey, 'http://127.0.0.1:5173')
  script.stored = null
  await gone.connector.restore(topic)
  expect(gone.wallet.ui.get().session).toBeNull()
  expect(await gone.storage.getItem(topicKey)).toBeUndefined()
})

test('a session paired from another page of the app is not taken up on this one (issue 21): it stays for that page', async () => {
  for (const site of ['http://127.0.0.1:5174', undefined]) {
    const t = await frame()
    await t.storage.setItem(topicKey, topic)
    if (site) await t.storage.setItem(siteKey, site)
    script.stored = { topic, address: A, chainIds: [31337], peer: 'Phone' }
    await t.connector.restore(topic)
    expect(t.wallet.ui.get().session).toBeNull()
    expect(t.events).toEqual([])
    expect(await t.storage.getItem(topicKey)).toBe(topic)
  }
})

test("after a reload, a session missing some of the app's chains is not taken up: the wallet's session is ended and the QR page asks to reconnect (no call fails with 4901)", async () => {
  const t = await frame()
  await t.storage.setItem(topicKey, topic)
  await t.storage.setItem(siteKey, 'http://127.0.0.1:5173')
  // Approved when the app had only 31337; it now has 31338 too.
  script.stored = { topic, address: A, chainIds: [31337], peer: 'Phone' }
  await t.connector.restore(topic)
  expect(t.wallet.ui.get().session).toBeNull()
  expect(t.events).toEqual([])
  expect(script.disconnected).toEqual([topic])
  expect(await t.storage.getItem(topicKey)).toBeUndefined()
  expect(await t.storage.getItem(siteKey)).toBeUndefined()
  // Nothing acts for the stale session: a call is 'not connected' (4900), never 4901 on 31338.
  await t.wallet.switchChain(31338)
  expect(() => t.connector.account()).toThrow(expect.objectContaining({ code: 4900 }))
  // The connect modal, when opened, starts on the QR page naming the wallet to pair again.
  expect(t.wallet.ui.get()).toMatchObject({ reconnect: 'Phone', page: 'qr-code', history: ['home'] })
  t.wallet.open('connect')
  expect(t.wallet.ui.get()).toMatchObject({ view: 'connect', page: 'qr-code' })

  // Paired again (all chains this time): connected, and the request to reconnect is gone.
  const pairing = await t.connector.pair()
  script.approve!({ session: { topic: 'f'.repeat(64), address: A, chainIds: [31337, 31338], peer: 'Phone' }, topic: 'f'.repeat(64) })
  await pairing.approval
  expect(t.wallet.ui.get()).toMatchObject({ session: { address: A }, reconnect: null })
  expect(t.connector.account().address).toBe(A)
})
