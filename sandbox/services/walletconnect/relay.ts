import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { type Connection, maxInFlight, openConnection, send, track, untrack } from './connection.ts'
import { defaultRelayLimits, perMinute, type RelayLimits } from './limits.ts'
import { createMailbox, type StoredMessage } from './mailbox.ts'
import { callMethod, type MessageData, type RelayOps } from './methods.ts'
import { invalidParams, limitReached, requestFrame, type RpcId } from './rpc.ts'
import { ipKey } from '../../http/rate-limit.ts'

/**
 * A WalletConnect v2 relay for one sandbox: the sockets of dapps and wallets, who is subscribed to
 * what, and the messages they publish (mailbox.ts), all in memory. The HTTP side (path, host, auth
 * token) is routes.ts; the methods are methods.ts.
 */
export type Relay = {
  /**
   * Takes an upgrade whose auth token named `clientId`, or answers why not (the route writes the
   * refusal): the relay is full, or this client has too many sockets open.
   */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer, clientId: string): { status: 429 | 503; reason: string } | undefined
  /** Drops every socket (clients reconnect on their own) and stops the relay's timer. */
  close(): Promise<void>
  readonly limits: RelayLimits
  /** What the relay holds now: open sockets, their subscriptions, stored messages and their bytes. */
  stats(): { sockets: number; subscriptions: number; messages: number; bytes: number }
}

/** Messages one irn_batchFetchMessages answers; `hasMore` says to ask again. */
const fetchPage = 100

export function createRelay(overrides: Partial<RelayLimits> = {}): Relay {
  const limits: RelayLimits = { ...defaultRelayLimits, ...overrides }
  // No compression: a small inflated frame could otherwise grow past maxPayload's meaning in memory.
  const server = new WebSocketServer({ noServer: true, maxPayload: limits.frameBytes, perMessageDeflate: false, clientTracking: false })
  // A message that leaves the mailbox is dropped from every socket's unacknowledged pushes too.
  const mailbox = createMailbox(limits, (stored) => {
    for (const connection of [...stored.pushedTo.keys()] as Connection[]) untrack(connection, stored)
  })
  const publishes = perMinute(limits.publishesPerMinute)
  const connections = new Set<Connection>()
  /** Open sockets per client id, and per source address (ipKey): a client id is a key anyone can make. */
  const socketsOf = new Map<string, number>()
  const socketsFrom = new Map<string, number>()
  const bump = (map: Map<string, number>, key: string, by: 1 | -1) => {
    const next = (map.get(key) ?? 0) + by
    if (next > 0) map.set(key, next)
    else map.delete(key)
  }
  const subscribers = new Map<string, Set<Connection>>()
  let subscriptionCount = 0
  // Push ids only need to be unique per socket; starting at the clock keeps them apart across restarts.
  let nextPushId = Date.now() * 1000
  let timer: NodeJS.Timeout | undefined
  let closed = false

  const deliver = (connection: Connection, stored: StoredMessage) => {
    if (stored.sender === connection.clientId || stored.ackedBy.has(connection.clientId) || connection.inFlightMessages.has(stored)) return
    // A socket that leaves this many unacknowledged gets nothing more until it acknowledges (or fetches).
    if (connection.inFlight.size >= maxInFlight) return
    const id = nextPushId++
    track(connection, id, stored)
    send(connection, requestFrame(id, 'irn_subscription', { id: subscriptionId(stored.topic, connection.clientId), data: messageData(stored) }), limits)
  }

  const opsFor = (connection: Connection, later: (task: () => void) => void): RelayOps => ({
    subscribe(topics) {
      const fresh = new Set(topics.filter((topic) => !connection.topics.has(topic)))
      if (connection.topics.size + fresh.size > limits.subscriptionsPerSocket)
        throw limitReached(`Too many subscriptions: at most ${limits.subscriptionsPerSocket} per socket`)
      if (subscriptionCount + fresh.size > limits.subscriptions) throw limitReached('Too many subscriptions on this relay')
      for (const topic of fresh) {
        connection.topics.add(topic)
        subscriptionCount++
        let set = subscribers.get(topic)
        if (!set) {
          set = new Set()
          subscribers.set(topic, set)
        }
        set.add(connection)
      }
      later(() => {
        for (const topic of new Set(topics)) for (const stored of mailbox.waitingFor(topic, connection.clientId)) deliver(connection, stored)
      })
      return topics.map((topic) => subscriptionId(topic, connection.clientId))
    },
    unsubscribe(topics) {
      for (const topic of topics) unsubscribe(connection, topic)
    },
    publish(messages) {
      const tooLong = messages.find((entry) => entry.ttlSeconds > limits.maxTtlSeconds)
      if (tooLong) throw invalidParams(`ttl may be at most ${limits.maxTtlSeconds} seconds`)
      if (!publishes.take(connection.clientId, messages.length)) throw limitReached(`Too many publishes: at most ${limits.publishesPerMinute} a minute`)
      for (const entry of messages) {
        const stored = mailbox.put({ ...entry, sender: connection.clientId, source: connection.source })
        if ('refused' in stored) throw limitReached(stored.refused)
        for (const subscriber of subscribers.get(entry.topic) ?? []) deliver(subscriber, stored)
      }
    },
    fetch(topics) {
      const waiting = [...new Set(topics)].flatMap((topic) => mailbox.waitingFor(topic, connection.clientId))
      const page = waiting.filter((stored) => !connection.inFlightMessages.has(stored)).slice(0, fetchPage + 1)
      const messages = page.slice(0, fetchPage)
      for (const stored of messages) mailbox.acknowledge(stored, connection.clientId)
      return { messages: messages.map(messageData), hasMore: page.length > fetchPage }
    },
  })

  const unsubscribe = (connection: Connection, topic: string) => {
    if (!connection.topics.delete(topic)) return
    subscriptionCount--
    const set = subscribers.get(topic)
    set?.delete(connection)
    if (set?.size === 0) subscribers.delete(topic)
  }

  const handlers = {
    call: (connection: Connection, method: string, params: unknown, later: (task: () => void) => void) => callMethod(method, params, opsFor(connection, later)),
    acknowledge(connection: Connection, id: RpcId) {
      const stored = connection.inFlight.get(id)
      if (!stored) return
      untrack(connection, stored)
      mailbox.acknowledge(stored, connection.clientId)
    },
    closed(connection: Connection) {
      if (!connections.delete(connection)) return
      for (const stored of [...connection.inFlightMessages]) untrack(connection, stored)
      for (const topic of [...connection.topics]) unsubscribe(connection, topic)
      bump(socketsOf, connection.clientId, -1)
      bump(socketsFrom, connection.source, -1)
    },
  }

  // Pings keep idle sockets open (Node clients give up after 35 s without one); a socket that did not
  // answer the last ping is gone. The same tick forgets expired messages and ended rate windows.
  const tick = () => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.socket.terminate()
        continue
      }
      connection.alive = false
      connection.socket.ping()
    }
    mailbox.sweep()
    publishes.sweep()
  }

  return {
    limits,
    accept(request, socket, head, clientId) {
      if (closed || connections.size >= limits.sockets) return { status: 503, reason: 'Relay is full' }
      if ((socketsOf.get(clientId) ?? 0) >= limits.socketsPerClient) return { status: 429, reason: 'Too many sockets for this client' }
      const source = ipKey(request.socket.remoteAddress ?? 'unknown')
      if ((socketsFrom.get(source) ?? 0) >= limits.socketsPerSource) return { status: 429, reason: 'Too many sockets from this address' }
      // ws completes a valid handshake synchronously (no verifyClient), so these checks cannot race.
      server.handleUpgrade(request, socket, head, (ws) => {
        connections.add(openConnection(ws, { clientId, source }, limits, handlers))
        bump(socketsOf, clientId, 1)
        bump(socketsFrom, source, 1)
        // Started with the first socket, so a sandbox that never serves one has no timer to stop.
        timer ??= setInterval(tick, limits.pingIntervalMs).unref()
      })
      return undefined
    },
    async close() {
      closed = true
      clearInterval(timer)
      for (const connection of [...connections]) connection.socket.terminate()
      server.close()
    },
    stats: () => ({ sockets: connections.size, subscriptions: subscriptionCount, ...mailbox.size }),
  }
}

/** The id sign-client computes for its own subscription (sha256 of topic and client id, hex): the relay's pushes carry the same. */
export const subscriptionId = (topic: string, clientId: string) =>
  createHash('sha256')
    .update(topic + clientId)
    .digest('hex')

const messageData = (stored: StoredMessage): MessageData => ({
  topic: stored.topic,
  message: stored.message,
  publishedAt: stored.publishedAt,
  tag: stored.tag,
  // Forwarded empty, never absent: with no attestation the wallet would ask the verify server, which is offline.
  attestation: '',
})
