import type { RelayLimits } from './limits.ts'

/**
 * The relay's memory: every published message, kept for its TTL so that a client that subscribes
 * later (the wallet scanning a QR code, a tab reconnecting) still gets it. Each message remembers who
 * sent it (never delivered back to that client id) and which clients acknowledged it (not delivered
 * to them again). Bounded per topic and client, in all (by count and bytes), and per client id and per source
 * address (what one client may keep: a client id is a key anyone can make, an address is not).
 * Only a publisher's own oldest messages make way for its new one; another client's never do (a
 * waiting pairing proposal must not be pushed out by someone else's flood): when its own cannot
 * make room, or its client or address holds its share already, the publish is refused.
 */
export type StoredMessage = {
  readonly topic: string
  /** The envelope as published: base64 of the encrypted payload, which the relay cannot read. */
  readonly message: string
  readonly tag: number
  /** Milliseconds, as the clients expect `publishedAt` (they sort a batch by it). */
  readonly publishedAt: number
  readonly expiresAt: number
  /** The publisher's client id. */
  readonly sender: string
  /** The publisher's address, as the relay counts it (rate-limit.ts's ipKey). */
  readonly source: string
  readonly bytes: number
  /** Client ids that acknowledged it. */
  readonly ackedBy: Set<string>
  /** Sockets it was pushed to and that have not acknowledged it yet, with the push id. */
  readonly pushedTo: Map<object, number | string>
}

export type NewMessage = { topic: string; message: string; tag: number; ttlSeconds: number; sender: string; source: string }

/** A publish the mailbox would not keep, and why (the relay answers it as a limit, -32005). */
export type Refusal = { refused: string }

// A client id is ~56 characters; the rest of a record is a few numbers and references.
const overheadBytes = 256
/** Acknowledgers remembered per message: a topic has two parties, maybe a few tabs of each. */
const maxAckers = 64

export function createMailbox(
  limits: Pick<
    RelayLimits,
    | 'messagesPerTopic'
    | 'storedMessages'
    | 'storedBytes'
    | 'storedMessagesPerClient'
    | 'storedBytesPerClient'
    | 'storedMessagesPerSource'
    | 'storedBytesPerSource'
  >,
  /** Told of each message that leaves (expired or made way), so nothing else keeps it in memory. */
  removed: (stored: StoredMessage) => void = () => {},
) {
  const byTopic = new Map<string, StoredMessage[]>()
  // A Set iterates in insertion order: its first entry is the oldest message.
  const all = new Set<StoredMessage>()
  let bytes = 0
  // Each client's messages, oldest first, and what each client and each address holds.
  const bySender = new Map<string, Set<StoredMessage>>()
  const held = new Map<string, { messages: number; bytes: number }>()
  const heldBy = (key: string) => held.get(key) ?? { messages: 0, bytes: 0 }
  const count = (key: string, stored: StoredMessage, sign: 1 | -1) => {
    const usage = heldBy(key)
    const next = { messages: usage.messages + sign, bytes: usage.bytes + sign * stored.bytes }
    if (next.messages === 0) held.delete(key)
    else held.set(key, next)
  }
  const clientKey = (sender: string) => `client\u0000${sender}`
  const sourceKey = (source: string) => `source\u0000${source}`

  const remove = (stored: StoredMessage) => {
    if (!all.delete(stored)) return
    bytes -= stored.bytes
    count(clientKey(stored.sender), stored, -1)
    count(sourceKey(stored.source), stored, -1)
    const own = bySender.get(stored.sender)
    own?.delete(stored)
    if (own?.size === 0) bySender.delete(stored.sender)
    removed(stored)
    const list = byTopic.get(stored.topic)
    if (!list) return
    const index = list.indexOf(stored)
    if (index >= 0) list.splice(index, 1)
    if (list.length === 0) byTopic.delete(stored.topic)
  }

  const live = (topic: string, now: number) => {
    const list = byTopic.get(topic)
    if (!list) return []
    for (const stored of list.filter((entry) => entry.expiresAt <= now)) remove(stored)
    return byTopic.get(topic) ?? []
  }

  const sweep = (now: number) => {
    for (const stored of [...all]) if (stored.expiresAt <= now) remove(stored)
  }

  /** Why `stored` may not be kept with what is there now (without making way), or undefined. */
  const overShare = (stored: StoredMessage) => {
    const client = heldBy(clientKey(stored.sender))
    if (client.messages + 1 > limits.storedMessagesPerClient || client.bytes + stored.bytes > limits.storedBytesPerClient)
      return `Too many stored messages: at most ${limits.storedMessagesPerClient} (${limits.storedBytesPerClient} bytes) per client, until they expire`
    const source = heldBy(sourceKey(stored.source))
    if (source.messages + 1 > limits.storedMessagesPerSource || source.bytes + stored.bytes > limits.storedBytesPerSource)
      return `Too many stored messages from this address: at most ${limits.storedMessagesPerSource} (${limits.storedBytesPerSource} bytes), until they expire`
    return undefined
  }
  const relayFull = (extraBytes: number) => all.size + 1 > limits.storedMessages || bytes + extraBytes > limits.storedBytes

  return {
    /** Keeps a message, or answers why not; only the publisher's own oldest messages ever make way. */
    put(input: NewMessage, now = Date.now()): StoredMessage | Refusal {
      const stored: StoredMessage = {
        topic: input.topic,
        message: input.message,
        tag: input.tag,
        publishedAt: now,
        expiresAt: now + input.ttlSeconds * 1000,
        sender: input.sender,
        source: input.source,
        bytes: input.message.length + input.topic.length + overheadBytes,
        ackedBy: new Set(),
        pushedTo: new Map(),
      }
      // Expired messages count for nothing: forget them before refusing anyone.
      if (overShare(stored) || relayFull(stored.bytes)) sweep(now)
      const share = overShare(stored)
      if (share) return { refused: share }
      const mine = heldBy(clientKey(input.sender))
      if (all.size - mine.messages + 1 > limits.storedMessages || bytes - mine.bytes + stored.bytes > limits.storedBytes)
        return { refused: 'The relay is full: try again when stored messages expire' }
      // What may make way: this client's own messages, on the topic (for its cap per topic), then anywhere.
      const ownOnTopic = live(input.topic, now).filter((entry) => entry.sender === input.sender)
      while (ownOnTopic.length >= limits.messagesPerTopic && ownOnTopic[0]) remove(ownOnTopic.shift()!)
      for (const oldest of [...(bySender.get(input.sender) ?? [])]) {
        if (!relayFull(stored.bytes)) break
        remove(oldest)
      }
      if (!byTopic.has(input.topic)) byTopic.set(input.topic, [])
      byTopic.get(input.topic)?.push(stored)
      all.add(stored)
      bytes += stored.bytes
      count(clientKey(stored.sender), stored, 1)
      count(sourceKey(stored.source), stored, 1)
      const own = bySender.get(stored.sender)
      if (own) own.add(stored)
      else bySender.set(stored.sender, new Set([stored]))
      return stored
    },

    /** The live messages on `topic` that `clientId` neither sent nor acknowledged, oldest first. */
    waitingFor(topic: string, clientId: string, now = Date.now()): StoredMessage[] {
      return live(topic, now).filter((stored) => stored.sender !== clientId && !stored.ackedBy.has(clientId))
    },

    acknowledge(stored: StoredMessage, clientId: string) {
      if (stored.ackedBy.size < maxAckers) stored.ackedBy.add(clientId)
    },

    /** Drops expired messages. */
    sweep(now = Date.now()) {
      sweep(now)
    },

    get size() {
      return { messages: all.size, bytes }
    },
  }
}
