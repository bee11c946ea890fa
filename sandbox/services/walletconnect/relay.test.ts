// The relay protocol with bare clients: store and forward, never back to the sender, the two session
// methods' implicit subscriptions, malformed frames, limits, pings. Whatever a client sends, the
// relay answers or closes that one socket, and goes on serving the others.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { subscriptionId } from './relay.ts'
import { newKey, type RawClient, randomTopic, rawClient, startTestRelay, type TestRelay, until } from './relay.fixture.ts'

let relay: TestRelay
beforeAll(async () => {
  relay = await startTestRelay({ publishesPerMinute: 30, subscriptionsPerSocket: 20, messagesPerTopic: 5, framesPerMinute: 200 })
})
afterAll(() => relay?.close())

const publish = (client: RawClient, topic: string, message: string, extra: Record<string, unknown> = {}) =>
  client.call('irn_publish', { topic, message, ttl: 300, tag: 1108, prompt: true, correlationId: 1, ...extra })
const quiet = () => new Promise((resolve) => setTimeout(resolve, 150))

test("a message reaches the topic's other subscribers, is acknowledged, and never goes back to its sender's client id", async () => {
  const topic = randomTopic()
  const key = newKey()
  const [sender, senderTab, receiver] = await Promise.all([rawClient(relay, { key }), rawClient(relay, { key }), rawClient(relay)])
  for (const client of [sender, senderTab, receiver])
    expect((await client.call('irn_subscribe', { topic })).result).toBe(subscriptionId(topic, client.clientId))
  expect(await publish(sender, topic, 'hello')).toMatchObject({ result: true })
  const push = await receiver.next((frame) => frame.method === 'irn_subscription')
  expect(push.params).toEqual({
    id: subscriptionId(topic, receiver.clientId),
    data: { topic, message: 'hello', publishedAt: expect.any(Number), tag: 1108, attestation: '' },
  })
  await quiet()
  expect(sender.pushes()).toEqual([])
  expect(senderTab.pushes()).toEqual([])
  // Acknowledged: subscribing again brings nothing new.
  await receiver.call('irn_subscribe', { topic })
  await quiet()
  expect(receiver.pushes()).toHaveLength(1)
  for (const client of [sender, senderTab, receiver]) client.close()
})

test('a later subscriber gets what was stored; an unacknowledged message comes again on the next socket', async () => {
  const topic = randomTopic()
  const sender = await rawClient(relay)
  await publish(sender, topic, 'first')
  await publish(sender, topic, 'second')
  const key = newKey()
  const forgetful = await rawClient(relay, { key, ack: false })
  await forgetful.call('irn_batchSubscribe', { topics: [topic] })
  await forgetful.next(() => forgetful.pushes(topic).length === 2)
  expect(forgetful.pushes(topic).map((frame) => frame.params.data.message)).toEqual(['first', 'second'])
  forgetful.close()
  const again = await rawClient(relay, { key })
  await again.call('irn_subscribe', { topic })
  await again.next(() => again.pushes(topic).length === 2)
  const fetched = await again.call('irn_batchFetchMessages', { topics: [topic] })
  expect(fetched.result).toEqual({ messages: [], hasMore: false })
  for (const client of [sender, again]) client.close()
})

test('irn_batchFetchMessages answers stored messages; unsubscribed topics get no pushes', async () => {
  const [topic, other] = [randomTopic(), randomTopic()]
  const sender = await rawClient(relay)
  await publish(sender, topic, 'stored', { tag: 1110 })
  const reader = await rawClient(relay)
  const fetched = await reader.call('irn_batchFetchMessages', { topics: [topic, other] })
  expect(fetched.result).toEqual({ messages: [{ topic, message: 'stored', publishedAt: expect.any(Number), tag: 1110, attestation: '' }], hasMore: false })
  await reader.call('irn_subscribe', { topic: other })
  expect((await reader.call('irn_unsubscribe', { topic: other, id: subscriptionId(other, reader.clientId) })).result).toBe(true)
  expect((await reader.call('irn_batchUnsubscribe', { subscriptions: [{ topic, id: 'x' }] })).result).toBe(true)
  await publish(sender, other, 'after unsubscribing')
  await quiet()
  expect(reader.pushes()).toEqual([])
  for (const client of [sender, reader]) client.close()
})

test('messages live for their TTL; a topic keeps its newest ones', async () => {
  const [short, busy] = [randomTopic(), randomTopic()]
  const sender = await rawClient(relay)
  await publish(sender, short, 'gone soon', { ttl: 1 })
  expect((await sender.call('irn_batchPublish', { messages: [1, 2, 3, 4, 5, 6, 7].map((n) => ({ topic: busy, message: `m${n}`, ttl: 300 })) })).result).toBe(
    true,
  )
  await new Promise((resolve) => setTimeout(resolve, 1_100))
  const reader = await rawClient(relay)
  const fetched = await reader.call('irn_batchFetchMessages', { topics: [short, busy] })
  expect(fetched.result.messages.map((message: { message: string }) => message.message)).toEqual(['m3', 'm4', 'm5', 'm6', 'm7'])
  for (const client of [sender, reader]) client.close()
})

test('wc_proposeSession and wc_approveSession store their messages and subscribe their senders', async () => {
  const [pairingTopic, sessionTopic] = [randomTopic(), randomTopic()]
  const [dapp, wallet] = await Promise.all([rawClient(relay), rawClient(relay)])
  const proposed = await dapp.call('wc_proposeSession', { pairingTopic, sessionProposal: 'proposal', ttl: 300, attestation: 'jwt', correlationId: 7 })
  expect(proposed.result).toBe(true)
  await wallet.call('irn_subscribe', { topic: pairingTopic })
  expect((await wallet.next((frame) => frame.method === 'irn_subscription')).params.data).toMatchObject({
    topic: pairingTopic,
    message: 'proposal',
    tag: 1100,
    attestation: '',
  })
  const approval = { pairingTopic, sessionTopic, sessionProposalResponse: 'response', sessionSettlementRequest: 'settle', ttl: 300, correlationId: 7 }
  expect((await wallet.call('wc_approveSession', approval)).result).toBe(true)
  // The dapp never subscribed to the pairing topic: proposing did.
  expect((await dapp.next((frame) => frame.method === 'irn_subscription')).params.data).toMatchObject({ topic: pairingTopic, message: 'response', tag: 1101 })
  await dapp.call('irn_subscribe', { topic: sessionTopic })
  expect((await dapp.next(() => dapp.pushes(sessionTopic).length > 0)) && dapp.pushes(sessionTopic)[0].params.data).toMatchObject({
    message: 'settle',
    tag: 1102,
  })
  // Nor did the wallet subscribe to the session topic: approving did.
  await publish(dapp, sessionTopic, 'settled', { tag: 1103 })
  await wallet.next(() => wallet.pushes(sessionTopic).length > 0)
  expect(wallet.pushes(sessionTopic).map((frame) => frame.params.data.message)).toEqual(['settled'])
  expect(dapp.pushes(pairingTopic).map((frame) => frame.params.data.message)).toEqual(['response'])
  for (const client of [dapp, wallet]) client.close()
})

test.each([
  ['malformed JSON', '{"id":1,', null, -32700],
  ['a batch array', '[{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{}}]', null, -32600],
  ['a number', '42', null, -32600],
  ['no jsonrpc version', '{"id":2,"method":"irn_subscribe","params":{}}', 2, -32600],
  ['a method that is not a string', '{"id":3,"jsonrpc":"2.0","method":7}', 3, -32600],
  ['an object id', '{"id":{},"jsonrpc":"2.0","method":"irn_subscribe"}', null, -32600],
  ['an unknown method', '{"id":4,"jsonrpc":"2.0","method":"eth_sendTransaction","params":{}}', 4, -32601],
  ['a prototype key as method', '{"id":5,"jsonrpc":"2.0","method":"__proto__","params":{}}', 5, -32601],
  ['params as an array', '{"id":6,"jsonrpc":"2.0","method":"irn_subscribe","params":["ab"]}', 6, -32602],
  ['no params', '{"id":7,"jsonrpc":"2.0","method":"irn_publish"}', 7, -32602],
  ['a topic that is not 32 bytes of hex', '{"id":8,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"abc"}}', 8, -32602],
  ['topics that are not an array', '{"id":9,"jsonrpc":"2.0","method":"irn_batchSubscribe","params":{"topics":"abc"}}', 9, -32602],
  ['a publish without ttl', `{"id":10,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"${'a'.repeat(64)}","message":"m"}}`, 10, -32602],
  ['a TTL over 30 days', `{"id":11,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"${'a'.repeat(64)}","message":"m","ttl":2592001}}`, 11, -32602],
  ['a fractional tag', `{"id":12,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"${'a'.repeat(64)}","message":"m","ttl":30,"tag":1.5}}`, 12, -32602],
  [
    'an approval without its settlement',
    `{"id":13,"jsonrpc":"2.0","method":"wc_approveSession","params":{"pairingTopic":"${'a'.repeat(64)}","sessionTopic":"${'b'.repeat(64)}","sessionProposalResponse":"r"}}`,
    13,
    -32602,
  ],
  [
    'a batch of 501 topics',
    JSON.stringify({ id: 14, jsonrpc: '2.0', method: 'irn_batchSubscribe', params: { topics: Array(501).fill('a'.repeat(64)) } }),
    14,
    -32602,
  ],
])('%s: a JSON-RPC error answer, and the socket stays open', async (_, frame, id, code) => {
  const client = await rawClient(relay)
  client.sendRaw(frame)
  const answer = await client.next((received) => received.error !== undefined)
  expect(answer).toMatchObject({ id, jsonrpc: '2.0', error: { code, message: expect.any(String) } })
  expect((await client.call('irn_subscribe', { topic: randomTopic() })).result).toEqual(expect.any(String))
  client.close()
})

test('a binary frame, a notification and a stray answer are no trouble either', async () => {
  const client = await rawClient(relay)
  client.sendRaw(Buffer.from('{"id":1,"jsonrpc":"2.0","method":"irn_subscribe"}'))
  expect((await client.next((frame) => frame.error !== undefined)).error.code).toBe(-32600)
  client.sendRaw('{"jsonrpc":"2.0","method":"irn_subscribe","params":{}}')
  client.sendRaw('{"id":123456,"jsonrpc":"2.0","result":true}')
  expect((await client.call('irn_subscribe', { topic: randomTopic() })).result).toEqual(expect.any(String))
  expect(client.frames).toHaveLength(2)
  client.close()
})

test('an oversized frame closes that socket with 1009; others carry on', async () => {
  const [big, bystander] = await Promise.all([rawClient(relay), rawClient(relay)])
  big.sendRaw(JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'irn_publish', params: { topic: randomTopic(), message: 'x'.repeat(64 * 1024), ttl: 300 } }))
  expect(await big.closed).toBe(1009)
  expect((await publish(bystander, randomTopic(), 'still here')).result).toBe(true)
  bystander.close()
})

test('a flood of publishes hits the per-client limit; other clients are not affected', async () => {
  const [flooder, other] = await Promise.all([rawClient(relay), rawClient(relay)])
  const topic = randomTopic()
  const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => publish(flooder, topic, `flood ${n}`)))
  expect(answers.filter((answer) => answer.result === true)).toHaveLength(30)
  expect(answers.filter((answer) => answer.error?.code === -32005)).toHaveLength(10)
  expect(answers.find((answer) => answer.error)?.error.message).toBe('Too many publishes: at most 30 a minute')
  expect((await publish(other, topic, 'mine')).result).toBe(true)
  for (const client of [flooder, other]) client.close()
})

test('subscriptions per socket are limited', async () => {
  const client = await rawClient(relay)
  const topics = Array.from({ length: 21 }, randomTopic)
  expect((await client.call('irn_batchSubscribe', { topics })).error).toMatchObject({ code: -32005 })
  expect((await client.call('irn_batchSubscribe', { topics: topics.slice(0, 20) })).result).toHaveLength(20)
  expect((await client.call('irn_subscribe', { topic: topics[20] })).error).toMatchObject({ code: -32005 })
  client.close()
})

test('a socket that sends too many frames is closed with 1008', async () => {
  const client = await rawClient(relay)
  for (let n = 0; n < 201; n++) client.sendRaw('{}')
  expect(await client.closed).toBe(1008)
})

test('the relay pings idle sockets and drops one that stops answering', async () => {
  const pinging = await startTestRelay({ pingIntervalMs: 300 })
  try {
    const [lively, dead] = await Promise.all([rawClient(pinging), rawClient(pinging)])
    let pings = 0
    lively.socket.on('ping', () => pings++)
    // Stop answering pings (ws answers them by itself).
    dead.socket.pong = () => {}
    expect(await dead.closed).toBe(1006)
    await until(() => pings >= 2)
    await until(() => pinging.relay.stats().sockets === 1)
    lively.close()
  } finally {
    await pinging.close()
  }
})

test('the store and the subscriptions are bounded in all', async () => {
  const small = await startTestRelay({ storedMessages: 10, storedBytes: 8 * 1024, subscriptions: 3 })
  try {
    const [client, other] = await Promise.all([rawClient(small), rawClient(small)])
    await client.call('irn_batchPublish', { messages: Array.from({ length: 15 }, (_, n) => ({ topic: randomTopic(), message: `m${n}`, ttl: 300 })) })
    expect(small.relay.stats().messages).toBe(10)
    await client.call('irn_publish', { topic: randomTopic(), message: 'x'.repeat(6000), ttl: 300 })
    expect(small.relay.stats().messages).toBeLessThan(10)
    expect(small.relay.stats().bytes).toBeLessThanOrEqual(8 * 1024)
    expect((await client.call('irn_batchSubscribe', { topics: [randomTopic(), randomTopic()] })).result).toHaveLength(2)
    expect((await other.call('irn_batchSubscribe', { topics: [randomTopic(), randomTopic()] })).error).toMatchObject({ code: -32005 })
    client.close()
    await until(() => small.relay.stats().subscriptions === 0)
    expect((await other.call('irn_batchSubscribe', { topics: [randomTopic(), randomTopic()] })).result).toHaveLength(2)
    other.close()
  } finally {
    await small.close()
  }
})

test('after all that the relay still serves a good client', async () => {
  const [a, b] = await Promise.all([rawClient(relay), rawClient(relay)])
  const topic = randomTopic()
  await b.call('irn_subscribe', { topic })
  await publish(a, topic, 'still working')
  expect((await b.next((frame) => frame.method === 'irn_subscription')).params.data.message).toBe('still working')
  for (const client of [a, b]) client.close()
})
