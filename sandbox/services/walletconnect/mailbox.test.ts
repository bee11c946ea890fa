import { expect, test } from 'vitest'
import { defaultRelayLimits } from './limits.ts'
import { createMailbox, type NewMessage } from './mailbox.ts'

// The mailbox's shares, directly: the relay's own tests run every client from loopback, one address.

const limits = {
  ...defaultRelayLimits,
  messagesPerTopic: 3,
  storedMessages: 10,
  storedBytes: 1024 * 1024,
  storedMessagesPerClient: 4,
  storedMessagesPerSource: 6,
}
const message = (sender: string, source: string, topic = `topic-${Math.random()}`): NewMessage => ({
  topic,
  message: 'm',
  tag: 0,
  ttlSeconds: 60,
  sender,
  source,
})

test('one address with many keys holds at most its share; another address still publishes', () => {
  const mailbox = createMailbox(limits)
  for (let n = 0; n < 4; n++) expect(mailbox.put(message('key-1', '10.0.0.1'))).not.toHaveProperty('refused')
  expect(mailbox.put(message('key-1', '10.0.0.1'))).toEqual({
    refused: `Too many stored messages: at most 4 (${limits.storedBytesPerClient} bytes) per client, until they expire`,
  })
  for (let n = 0; n < 2; n++) expect(mailbox.put(message('key-2', '10.0.0.1'))).not.toHaveProperty('refused')
  expect(mailbox.put(message('key-3', '10.0.0.1'))).toEqual({
    refused: `Too many stored messages from this address: at most 6 (${limits.storedBytesPerSource} bytes), until they expire`,
  })
  expect(mailbox.put(message('key-4', '10.0.0.2'))).not.toHaveProperty('refused')
  expect(mailbox.size.messages).toBe(7)
})

test("the relay full: a publisher's own oldest make way, another client's never do", () => {
  const mailbox = createMailbox(limits)
  const proposal = mailbox.put(message('dapp', '10.0.0.1', 'pairing'))
  for (let n = 0; n < 4; n++) mailbox.put(message('a', '10.0.0.2'))
  for (let n = 0; n < 4; n++) mailbox.put(message('b', '10.0.0.3'))
  mailbox.put(message('c', '10.0.0.4'))
  expect(mailbox.size.messages).toBe(10)
  // 'd' holds nothing that could make way: refused, and nothing else is touched.
  expect(mailbox.put(message('d', '10.0.0.5'))).toEqual({ refused: 'The relay is full: try again when stored messages expire' })
  // 'c' may replace its own.
  expect(mailbox.put(message('c', '10.0.0.4'))).not.toHaveProperty('refused')
  expect(mailbox.size.messages).toBe(10)
  expect(mailbox.waitingFor('pairing', 'wallet')).toEqual([proposal])
})

test("a topic keeps each client's newest messages; one client's flood does not push out the other party's", () => {
  const mailbox = createMailbox(limits)
  const answer = mailbox.put(message('wallet', '10.0.0.1', 'session'))
  for (let n = 0; n < 3; n++) mailbox.put({ ...message('dapp', '10.0.0.2', 'session'), message: `d${n}` })
  mailbox.put({ ...message('dapp', '10.0.0.2', 'session'), message: 'd3' })
  expect(mailbox.waitingFor('session', 'wallet').map((stored) => stored.message)).toEqual(['d1', 'd2', 'd3'])
  expect(mailbox.waitingFor('session', 'dapp')).toEqual([answer])
})

test('expired messages free their share', () => {
  const mailbox = createMailbox(limits)
  const now = Date.now()
  for (let n = 0; n < 4; n++) mailbox.put(message('key-1', '10.0.0.1'), now)
  expect(mailbox.put(message('key-1', '10.0.0.1'), now)).toHaveProperty('refused')
  expect(mailbox.put(message('key-1', '10.0.0.1'), now + 61_000)).not.toHaveProperty('refused')
  expect(mailbox.size.messages).toBe(1)
})
