import type { RelayLimits } from './limits.ts'

/**
 * The relay's memory: every published message, kept for its TTL so that a client that subscribes
 * later (the wallet scanning a QR code, a tab reconnecting) still gets it. Each message remembers who
 * sent it (never delivered back to that client id) and which clients acknowledged it (not delivered
 * to them again). Bounded per topic and in all, by count and bytes: the oldest make way.
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
  readonly bytes: number
  /** Client ids that acknowledged it. */
  readonly ackedBy: Set<string>
  /** Sockets it was pushed to and that have not acknowledged it yet, with the push id. */
  readonly pushedTo: Map<object, number | string>
}

export type NewMessage = { topic: string; message: string; tag: number; ttlSeconds: number; sender: string }

// A client id is ~56 characters; the rest of a record is a few numbers and references.
const overheadBytes = 256
/** Acknowledgers remembered per message: a topic has two parties, maybe a few tabs of each. */
const maxAckers = 64

export function createMailbox(
  limits: Pick<RelayLimits, 'messagesPerTopic' | 'storedMessages' | 'storedBytes'>,
  /** Told of each message that leaves (expired or made way), so nothing else keeps it in memory. */
  removed: (stored: StoredMessage) => void = () => {},
) {
  const byTopic = new Map<string, StoredMessage[]>()
  // A Set iterates in insertion order: its first entry is the oldest message.
  const all = new Set<StoredMessage>()
  let bytes = 0

  const remove = (stored: StoredMessage) => {
    if (!all.delete(stored)) return
    bytes -= stored.bytes
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

  return {
    put(input: NewMessage, now = Date.now()): StoredMessage {
      const stored: StoredMessage = {
        topic: input.topic,
        message: input.message,
        tag: input.tag,
        publishedAt: now,
        expiresAt: now + input.ttlSeconds * 1000,
        sender: input.sender,
        bytes: input.message.length + input.topic.length + overheadBytes,
        ackedBy: new Set(),
        pushedTo: new Map(),
      }
      const list = live(input.topic, now)
      while (list.length >= limits.messagesPerTopic && list[0]) remove(list[0])
      for (const oldest of all) {
        if (all.size < limits.storedMessages && bytes + stored.bytes <= limits.storedBytes) break
        remove(oldest)
      }
      if (!byTopic.has(input.topic)) byTopic.set(input.topic, [])
      byTopic.get(input.topic)?.push(stored)
      all.add(stored)
      bytes += stored.bytes
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
      for (const stored of [...all]) if (stored.expiresAt <= now) remove(stored)
    },

    get size() {
      return { messages: all.size, bytes }
    },
  }
}
