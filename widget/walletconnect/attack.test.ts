// Attack review of the frame's WalletConnect account source (commit f8a0b70). The wallet peer is a
// fake sign-client (./client.ts mocked) whose answers and events we craft; the host page acts
// through the bridge's entry points (handleRpc, wallet.close(), wallet.disconnect()). Each
// weakness found is now a test of its fix; 'sound:' tests record what was found sound.
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { ChainClient } from '../../sdk/index.ts'
import { activeAccount } from '../accounts/active.ts'
import { createConfirmations } from '../confirmation.ts'
import { maxPendingConfirmations } from '../constants.ts'
import { handleRpc } from '../rpc/index.ts'
import type { RpcContext } from '../rpc/types.ts'
import { testWallet } from '../wallet.fixture.ts'
import type { ApprovedSession } from './client.ts'
import { createConnector } from './connector.ts'
import { memoryStorage, topicKey } from './storage.ts'

type Asked = { method: string; params: unknown[]; resolve(v: unknown): void; reject(e: unknown): void; settled: boolean }

/** The wallet peer, as the frame's sign-client sees it. */
const peer = vi.hoisted(() => ({
  handlers: new Map<string, ((arg: never) => void)[]>(),
  asked: [] as Asked[],
  disconnected: [] as string[],
  approve: null as null | ((s: { session: ApprovedSession | null; topic: string }) => void),
  /** As sign-client's engine emits: a listener's throw is caught there (onSessionEventRequest) and logged. */
  emit(name: string, arg: unknown) {
    for (const h of this.handlers.get(name) ?? [])
      try {
        h(arg as never)
      } catch {}
  },
  reset() {
    this.handlers.clear()
    this.asked.length = 0
    this.disconnected.length = 0
    this.approve = null
  },
}))

vi.mock('./client.ts', async (original) => ({
  ...(await original<typeof import('./client.ts')>()),
  openWalletConnect: async () => ({
    client: { on: (name: string, h: (arg: never) => void) => peer.handlers.set(name, [...(peer.handlers.get(name) ?? []), h]) },
    async pair() {
      return {
        uri: `wc:${'a'.repeat(64)}@2?relay-protocol=irn&symKey=${'5'.repeat(64)}&expiryTimestamp=1`,
        approval: new Promise((resolve) => {
          peer.approve = resolve
        }),
      }
    },
    restore: () => null,
    request(_topic: string, _chainId: number, method: string, params: unknown[]) {
      const a = { method, params, settled: false } as Asked
      const answer = new Promise((resolve, reject) => Object.assign(a, { resolve, reject }))
      peer.asked.push(a)
      return answer.finally(() => {
        a.settled = true
      })
    },
    async disconnect(topic: string) {
      peer.disconnected.push(topic)
    },
  }),
}))

afterEach(() => peer.reset())

const A = '0x00000000000000000000000000000000000000A1' as const
const B = '0x00000000000000000000000000000000000000B2' as const
const topic = 'f'.repeat(64)
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms))
/** Until the wallet has been asked `n` times: the signing handler's module loads with its first request (one tick is not always enough under load). */
const askedAtLeast = (n: number) => vi.waitFor(() => expect(peer.asked.length).toBeGreaterThanOrEqual(n))
const goodSig = `0x${'11'.repeat(65)}`

/** A frame with a WalletConnect wallet (address A on both sandbox chains) paired and announced. */
async function paired(session: Partial<ApprovedSession> = {}) {
  const t = testWallet()
  await t.wallet.restore()
  const storage = memoryStorage()
  const noRpc = { request: async () => Promise.reject(new Error('no chain RPC in unit tests')) } as unknown as ChainClient
  const connector = createConnector({
    wallet: t.wallet,
    config: { relayUrl: 'ws://127.0.0.1:1/walletconnect', projectId: 'p', testWallet: null },
    appName: 'Demo',
    storage,
    rpc: () => noRpc,
  })
  const pairing = await connector.pair()
  peer.approve!({ session: { topic, address: A, chainIds: [31337, 31338], peer: 'Evil Wallet', ...session }, topic })
  await pairing.approval
  const client = {} as RpcContext['client']
  const account = activeAccount(t.wallet, client, connector)
  const confirmations = createConfirmations(t.wallet, { signer: account.address })
  const ctx: RpcContext = { wallet: t.wallet, client, confirmations, account, rpc: () => noRpc }
  /** A request as the host page sends it: its answer, or its error's code and message. */
  const call = (method: string, params?: unknown) =>
    Promise.resolve()
      .then(() => handleRpc(ctx, params === undefined ? { method } : { method, params: params as never }))
      .then(
        (result) => ({ result }) as { result: unknown; code?: undefined },
        (e: { code: number; message: string }) => ({ code: e.code, message: e.message }) as { code: number; message: string; result?: undefined },
      )
  /** Watches an answer without awaiting it: undefined while the host is still waiting. */
  const watch = <T>(p: Promise<T>) => {
    const box: { value?: T } = {}
    void p.then((v) => (box.value = v))
    return box
  }
  return { ...t, storage, connector, confirmations, call, watch, pairing }
}

describe('the host page closes the modal while the paired wallet is asking the user', () => {
  test('kit.close() does not close while the wallet holds the request: the answer the user approves on the phone reaches the host', async () => {
    const t = await paired()
    const answer = t.watch(t.call('personal_sign', ['0x6869', A]))
    // The handler's module loads with its first request: wait until the wallet is asked.
    await vi.waitFor(() => expect(peer.asked).toHaveLength(1))
    expect(t.wallet.ui.get().confirmation?.status).toBe('wallet')
    // kit.close() (bridge.ts): modal-control.ts refuses only 'loading'/'success', not 'wallet'.
    t.wallet.close()
    await askedAtLeast(1)
    peer.asked[0]!.resolve(goodSig)
    await tick()
    // The host was told 4001, yet the wallet signed (a transaction: sent while the dapp thinks not).
    expect(answer.value).toEqual({ result: goodSig })
  })

  test(`close-and-ask again keeps at most ${maxPendingConfirmations} requests live on the wallet (the pending cap holds for on-device requests)`, async () => {
    const t = await paired()
    for (let i = 0; i < 40; i++) {
      void t.call('eth_signTypedData_v4', [A, JSON.stringify({ types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: { i } })])
      await tick()
      t.wallet.close()
    }
    await tick()
    const live = peer.asked.filter((a) => !a.settled).length
    // Every one is a prompt on the user's phone the frame has forgotten about.
    expect(live).toBeLessThanOrEqual(maxPendingConfirmations)
  })

  test('sound: without a close, a flood still stops at the cap (only the shown request reaches the wallet)', async () => {
    const t = await paired()
    const answers = Array.from({ length: maxPendingConfirmations + 5 }, () => t.call('personal_sign', ['0x6869', A]))
    await askedAtLeast(1)
    const refused = (await Promise.all(answers.slice(maxPendingConfirmations))).map((a) => a.code)
    expect(refused).toEqual(Array(5).fill(-32005))
    // This test's requests only: the previous test's typed-data requests may still reach the wallet late.
    expect(peer.asked.filter((a) => a.method === 'personal_sign')).toHaveLength(1)
    t.wallet.close()
  })
})

describe("the wallet's answer reaches the host page as is", () => {
  test('an answer that is not a signature (an object) is refused: the host gets -32603, never the object', async () => {
    const t = await paired()
    const answer = t.call('personal_sign', ['0x6869', A])
    await askedAtLeast(1)
    peer.asked[0]!.resolve({ r: '0x1', s: '0x2', injected: ['anything the wallet likes'] })
    // The failure is shown in the modal; Close answers the host with it.
    await vi.waitFor(() => expect(t.wallet.ui.get().confirmation?.status).toBe('error'))
    t.confirmations.reject()
    const got = await answer
    // A 65-byte hex signature, or an error (-32603): never an arbitrary object.
    expect(typeof got.result === 'string' && /^0x[0-9a-fA-F]{130}$/.test(got.result as string) ? 'signature' : got.code).toBe(-32603)
  })

  test('a 5 MB string as the eth_sendTransaction hash is refused: the host gets -32603', async () => {
    const t = await paired()
    const answer = t.call('eth_sendTransaction', [{ from: A, to: B, value: '0x1', gas: '0x5208', maxFeePerGas: '0x2', maxPriorityFeePerGas: '0x1' }])
    // The handler's module loads with its first request: wait until the wallet is asked.
    await vi.waitFor(() => expect(peer.asked[0]?.method).toBe('eth_sendTransaction'))
    peer.asked[0]!.resolve(`0x${'ab'.repeat(2_500_000)}`)
    await vi.waitFor(() => expect(t.wallet.ui.get().confirmation?.status).toBe('error'))
    t.confirmations.reject()
    const got = await answer
    expect(typeof got.result === 'string' && /^0x[0-9a-fA-F]{64}$/.test(got.result as string) ? 'hash' : got.code).toBe(-32603)
  })

  test("sound: the wallet's refusal (5000) is 4001; another error is shown and answers with the request's failure", async () => {
    const t = await paired()
    const refused = t.call('personal_sign', ['0x6869', A])
    await askedAtLeast(1)
    peer.asked[0]!.reject({ code: 5000, message: 'User rejected.' })
    expect(await refused).toMatchObject({ code: 4001 })
  })
})

describe('the wallet changes its account while a request is on screen', () => {
  test("accountsChanged to another address ends the request made for A: the new account's answer never reaches the host as A's", async () => {
    const t = await paired()
    const answer = t.watch(t.call('personal_sign', ['0x6869', A]))
    await tick()
    peer.emit('session_event', { topic, params: { event: { name: 'accountsChanged', data: [`eip155:31337:${B}`] }, chainId: 'eip155:31337' } })
    await tick()
    expect(t.wallet.ui.get().session?.address).toBe(B)
    expect(t.events).toContainEqual(['accountsChanged', [B]])
    // The embedded wallet's adopt() (connection.ts) closes a confirmation shown for the previous account; connectedRemotely does not.
    peer.asked[0]?.resolve(goodSig)
    await tick()
    expect(answer.value).not.toEqual({ result: goodSig })
  })

  test('sound: a crafted accountsChanged (not an address) ends the connection for the host; it never becomes an account', async () => {
    for (const data of [['eip155:1:0x1234'], ['javascript:alert(1)'], [`eip155:31337:${A}<img>`], [`${'9'.repeat(100_000)}`], []]) {
      const t = await paired()
      peer.emit('session_event', { topic, params: { event: { name: 'accountsChanged', data }, chainId: 'eip155:31337' } })
      await tick()
      expect(t.wallet.ui.get().session).toBeNull()
      expect(t.events.at(-1)).toEqual(['disconnect', { code: 4900, message: 'Disconnected' }])
      expect(await t.storage.getItem(topicKey)).toBeUndefined()
      peer.reset()
    }
    // JSON can carry {"toString":null}: String() throws in the frame's listener, sign-client catches
    // it; the event is dropped and the account stays A (harmless, noted only).
    const t = await paired()
    peer.emit('session_event', { topic, params: { event: { name: 'accountsChanged', data: [JSON.parse('{"toString":null}')] } } })
    await tick()
    expect(t.wallet.ui.get().session?.address).toBe(A)
  })

  test('sound: events on another topic, or a non-array accountsChanged, are ignored', async () => {
    const t = await paired()
    const before = t.events.length
    peer.emit('session_event', { topic: 'e'.repeat(64), params: { event: { name: 'accountsChanged', data: [B] } } })
    peer.emit('session_event', { topic, params: { event: { name: 'accountsChanged', data: B } } })
    peer.emit('session_delete', { topic: 'e'.repeat(64) })
    await tick()
    expect(t.wallet.ui.get().session?.address).toBe(A)
    expect(t.events.length).toBe(before)
  })
})

describe('the wallet changes chain', () => {
  test('sound: chainChanged to a chain the app does not configure, or one outside the session, is ignored', async () => {
    const t = await paired({ chainIds: [31337] })
    for (const data of [1, '0x1', 'eip155:31338', 31338, '31338', Number.MAX_SAFE_INTEGER * 4, null, { valueOf: 31338 }, '__proto__']) {
      peer.emit('session_event', { topic, params: { event: { name: 'chainChanged', data }, chainId: 'eip155:31337' } })
    }
    await tick()
    expect(t.wallet.chainId()).toBe(31337)
    expect(t.events.filter(([e]) => e === 'chainChanged')).toEqual([])
  })

  test('sound: a request while the frame is on a chain the wallet did not approve is 4901, nothing sent to the wallet', async () => {
    const t = await paired({ chainIds: [31337] })
    await t.wallet.switchChain(31338)
    expect(await t.call('personal_sign', ['0x6869', A])).toMatchObject({ code: 4901 })
    expect(peer.asked).toEqual([])
  })
})

describe('the wallet ends the session while a request is on screen', () => {
  test('session_delete answers the host request with 4900 and takes down the "Confirm in your wallet" modal', async () => {
    const t = await paired()
    const answer = t.watch(t.call('personal_sign', ['0x6869', A]))
    await tick()
    peer.emit('session_delete', { topic })
    await tick()
    expect(t.wallet.ui.get().session).toBeNull()
    // sign-client 2.25's deleteSession drops only incoming requests; the dapp's own request() waits out its expiry.
    expect(answer.value).toMatchObject({ code: 4900 })
    expect(t.wallet.ui.get().confirmation).toBeNull()
  })

  test('sound: the host disconnecting ends the WalletConnect session on the wallet too, and forgets its topic', async () => {
    const t = await paired()
    expect(await t.storage.getItem(topicKey)).toBe(topic)
    await t.wallet.disconnect()
    expect(peer.disconnected).toEqual([topic])
    expect(t.wallet.ui.get().session).toBeNull()
    expect(await t.storage.getItem(topicKey)).toBeUndefined()
    expect(await t.call('personal_sign', ['0x6869', A])).toMatchObject({ code: 4100 })
    // Nothing the host heard carries the pairing URI, its symKey or the session topic.
    expect(JSON.stringify(t.events)).not.toMatch(new RegExp(`symKey|${'5'.repeat(64)}|${topic}`))
  })
})

describe('pairings the user has moved on from', () => {
  test('a stale proposal (an earlier QR, or a URI the host was handed) approved later is refused: the connected wallet stays', async () => {
    const t = await paired()
    // A new URI every 5 minutes or after a refusal; earlier proposals stay answerable until they expire.
    const stale = await t.connector.pair()
    t.wallet.close()
    const otherTopic = 'c'.repeat(64)
    peer.approve!({ session: { topic: otherTopic, address: B, chainIds: [31337], peer: 'MetaMask' }, topic: otherTopic })
    await stale.approval.catch(() => {})
    await tick()
    // The frame now acts for B through a peer calling itself 'MetaMask'; the host hears accountsChanged [B].
    expect(t.wallet.ui.get().session?.address).toBe(A)
  })
})
