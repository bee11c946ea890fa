// Attacks on the relay that succeed today. Each test fails while its hole is open: a page on any web
// site (browsers send only Origin on a WebSocket), or any local process, can crash or pin the sandbox.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { authToken, openSocket, randomTopic, rawClient, startTestRelay, type TestRelay, until } from './relay.fixture.ts'

let relay: TestRelay
beforeAll(async () => {
  relay = await startTestRelay({ publishesPerMinute: 10_000, framesPerMinute: 10_000, storedBytes: 1024 * 1024 })
})
afterAll(() => relay?.close())

/** The HTTP status of an upgrade, 101 when a socket opened. */
async function upgradeStatus(headers: Record<string, string>) {
  const result = await openSocket(`${relay.url}?auth=${await authToken(relay.url)}&projectId=p`, headers)
  if (typeof result === 'number') return result
  result.terminate()
  return 101
}

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
/** Heap in use after a full collection, in bytes. */
const liveHeap = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

test('a page on a foreign web site cannot open the relay (legitimate clients still can)', async () => {
  // Any page the developer visits can do this; the rest of the sandbox answers 403 'Origin not allowed'
  // to origins that are neither its own nor an app's (services/auth/app-guard.ts). Here it gets a socket, and with it
  // every attack below, plus the relay-wide caps (1,000 sockets, 100,000 subscriptions, 10,000 messages).
  expect(await upgradeStatus({ origin: 'https://evil.example' })).not.toBe(101)
  expect(await upgradeStatus({ origin: 'null' })).not.toBe(101)
  // The provider's dev wallet page (own origin) and Node clients (no Origin) must keep working.
  expect(await upgradeStatus({ origin: `http://localhost:${relay.port}` })).toBe(101)
  expect(await upgradeStatus({})).toBe(101)
})

test('re-subscribing does not make the relay push the same unacknowledged messages again (push amplification)', async () => {
  // 1,600 stored messages (more than the 1,000 pushes a socket may leave unacknowledged). A client that
  // never acknowledges re-sends one small irn_batchSubscribe frame; each time the relay pushes every
  // message again, because tracking a push forgets the oldest in-flight one before the loop reaches it.
  // With 10,000 stored messages (32 MiB) that is 32 MiB of JSON out per ~3 KB frame, 3,000 frames a
  // minute per socket: one socket pins the sandbox's only thread.
  const publisher = await rawClient(relay)
  const topics = Array.from({ length: 8 }, randomTopic)
  for (const topic of topics) {
    const messages = Array.from({ length: 200 }, (_, n) => ({ topic, message: `m${n}`, ttl: 300 }))
    expect((await publisher.call('irn_batchPublish', { messages })).result).toBe(true)
  }
  const reader = await rawClient(relay, { ack: false })
  for (let round = 0; round < 4; round++) {
    expect((await reader.call('irn_batchSubscribe', { topics })).result).toHaveLength(8)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const pushed = reader.pushes().length
  for (const client of [publisher, reader]) client.close()
  // Each message at most once to this socket while it acknowledges nothing.
  expect(pushed).toBeLessThanOrEqual(8 * 200)
})

test('unacknowledged pushes do not keep evicted messages in memory past storedBytes', async () => {
  // The mailbox keeps at most storedBytes (1 MiB here) and evicts the oldest; but every message pushed to
  // a socket that reads and never acknowledges stays referenced from that socket's in-flight map (up to
  // 1,000 per socket, ~64 KB each: 64 MB a socket, in the V8 heap). A page with ~60 such sockets takes
  // the sandbox down with "JavaScript heap out of memory".
  const topic = randomTopic()
  const reader = await rawClient(relay, { ack: false })
  await reader.call('irn_subscribe', { topic })
  const publisher = await rawClient(relay)
  const before = liveHeap()
  const filler = 'x'.repeat(60_000)
  const count = 300
  for (let batch = 0; batch < count / 50; batch++)
    await Promise.all(Array.from({ length: 50 }, (_, n) => publisher.call('irn_publish', { topic, message: `${batch}-${n}-${filler}`, ttl: 300 })))
  await until(() => reader.pushes(topic).length === count)
  expect(relay.relay.stats().bytes).toBeLessThanOrEqual(1024 * 1024)
  // Forget what the test's own client received, so only the relay's memory is measured.
  reader.frames.length = 0
  publisher.frames.length = 0
  const retained = liveHeap() - before
  for (const client of [publisher, reader]) client.close()
  // 300 × 60 KB = 18 MB published; the store holds 1 MiB. Allow that and a few MB of noise.
  expect(retained).toBeLessThan(6 * 1024 * 1024)
})

test("one address with two self-made keys cannot evict a waiting pairing proposal: another client's messages never make way", async () => {
  // The dapp publishes its proposal on the pairing topic and waits for the wallet to scan the QR code.
  // An attacker on one address makes two client keys (a key is free) and publishes 262 messages of
  // ~64 KB from each: 524 × 64 KB is past the relay's 32 MiB, and the oldest made way, the proposal first.
  const big = await startTestRelay({ publishesPerMinute: 10_000, framesPerMinute: 10_000 })
  try {
    const pairingTopic = randomTopic()
    const dapp = await rawClient(big)
    expect((await dapp.call('irn_publish', { topic: pairingTopic, message: 'proposal', ttl: 300, tag: 1100 })).result).toBe(true)
    dapp.close()

    const filler = 'x'.repeat(63_000)
    const answers: { result?: unknown; error?: { code: number; message: string } }[] = []
    for (const attacker of [await rawClient(big), await rawClient(big)]) {
      for (let sent = 0; sent < 262; sent += 50)
        answers.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(50, 262 - sent) }, (_, n) =>
              attacker.call('irn_publish', { topic: randomTopic(), message: `${sent + n}-${filler}`, ttl: 300 }),
            ),
          )),
        )
      attacker.close()
    }
    // The attacker's publishes past what one client and one address may keep are refused, with a reason.
    const refused = answers.filter((answer) => answer.error)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused[0]!.error!.code).toBe(-32005)
    expect(refused[0]!.error!.message).toMatch(/at most/)

    // The wallet scans the QR code afterwards: the proposal is still there.
    const wallet = await rawClient(big)
    const fetched = await wallet.call('irn_batchFetchMessages', { topics: [pairingTopic] })
    expect(fetched.result.messages.map((message: { message: string }) => message.message)).toEqual(['proposal'])
    wallet.close()
  } finally {
    await big.close()
  }
})

test('one address cannot take all the relay’s sockets with keys of its own', async () => {
  const small = await startTestRelay({ socketsPerSource: 3 })
  try {
    const clients = await Promise.all([rawClient(small), rawClient(small), rawClient(small)])
    // A fourth key from the same address: refused, though that key has no socket yet.
    expect(await openSocket(`${small.url}?auth=${await authToken(small.url)}&projectId=p`)).toBe(429)
    clients[0]!.close()
    await until(() => small.relay.stats().sockets === 2)
    const again = await rawClient(small)
    for (const client of [...clients, again]) client.close()
  } finally {
    await small.close()
  }
})
