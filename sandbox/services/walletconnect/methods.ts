import { RpcError, invalidParams, rpcCodes } from './rpc.ts'

/**
 * The relay's JSON-RPC methods, one handler each: what sign-client 2.25 and WalletKit 1.6 send
 * (sandbox/README.md, "WalletConnect relay", lists them). A handler checks its params' shape and calls the relay
 * (`RelayOps`, bound to the calling socket); anything else is -32601, a bad shape -32602.
 */
export type Publish = { topic: string; message: string; ttlSeconds: number; tag: number }

/** A message as a client receives it: in an irn_subscription push, or from irn_batchFetchMessages. */
export type MessageData = { topic: string; message: string; publishedAt: number; tag: number; attestation: string }

export type RelayOps = {
  /** Subscribes the socket; answers the subscription ids. Stored messages follow the answer. */
  subscribe(topics: readonly string[]): string[]
  unsubscribe(topics: readonly string[]): void
  /** Stores each message for its TTL and forwards it to the topic's subscribers, the sender's client id excepted. */
  publish(messages: readonly Publish[]): void
  fetch(topics: readonly string[]): { messages: MessageData[]; hasMore: boolean }
}

type Params = Record<string, unknown>
type Handler = (params: Params, ops: RelayOps) => unknown

// sign-client's message tags (its ENGINE_RPC_OPTS) for what the two session methods carry.
const tags = { proposal: 1100, proposalResponse: 1101, settlement: 1102 }
/** TTL of a proposal and its answers when the client names none: the 5 minutes a pairing URI lives. */
const proposalTtl = 300
/** Topics or messages in one batch (the relay spec's limit; sign-client re-subscribes 500 at a time). */
const maxBatch = 500

const handlers: Record<string, Handler> = {
  irn_subscribe: (params, ops) => ops.subscribe([topic(params.topic, 'topic')])[0],
  irn_batchSubscribe: (params, ops) => ops.subscribe(topics(params.topics)),
  irn_unsubscribe: (params, ops) => {
    ops.unsubscribe([topic(params.topic, 'topic')])
    return true
  },
  irn_batchUnsubscribe: (params, ops) => {
    ops.unsubscribe(
      batch(params.subscriptions, 'subscriptions').map((entry, index) =>
        topic(record(entry, `subscriptions[${index}]`).topic, `subscriptions[${index}].topic`),
      ),
    )
    return true
  },
  irn_publish: (params, ops) => {
    ops.publish([publish(params, '')])
    return true
  },
  irn_batchPublish: (params, ops) => {
    ops.publish(batch(params.messages, 'messages').map((entry, index) => publish(record(entry, `messages[${index}]`), `messages[${index}].`)))
    return true
  },
  irn_batchFetchMessages: (params, ops) => ops.fetch(topics(params.topics)),
  // Since sign-client 2.22 the dapp does not subscribe to the pairing topic itself: proposing does.
  wc_proposeSession: (params, ops) => {
    const pairingTopic = topic(params.pairingTopic, 'pairingTopic')
    const ttlSeconds = ttl(params.ttl, 'ttl', proposalTtl)
    const proposal = { topic: pairingTopic, message: message(params.sessionProposal, 'sessionProposal'), ttlSeconds, tag: tags.proposal }
    ops.subscribe([pairingTopic])
    ops.publish([proposal])
    return true
  },
  // The wallet does not subscribe to the session topic either: approving does. The answer goes to
  // the dapp on the pairing topic; the settlement waits on the session topic for the dapp's subscribe.
  wc_approveSession: (params, ops) => {
    const sessionTopic = topic(params.sessionTopic, 'sessionTopic')
    const pairingTopic = topic(params.pairingTopic, 'pairingTopic')
    const ttlSeconds = ttl(params.ttl, 'ttl', proposalTtl)
    const response = {
      topic: pairingTopic,
      message: message(params.sessionProposalResponse, 'sessionProposalResponse'),
      ttlSeconds,
      tag: tags.proposalResponse,
    }
    const settlement = { topic: sessionTopic, message: message(params.sessionSettlementRequest, 'sessionSettlementRequest'), ttlSeconds, tag: tags.settlement }
    ops.subscribe([sessionTopic])
    ops.publish([response, settlement])
    return true
  },
}

export function callMethod(method: string, params: unknown, ops: RelayOps): unknown {
  const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined
  if (!handler) throw new RpcError(rpcCodes.methodNotFound, `Method not found: ${method.slice(0, 64)}`)
  return handler(record(params, 'params'), ops)
}

// A topic is 32 bytes in hex: a hash of the pairing's or session's symmetric key.
const topicPattern = /^[0-9a-f]{64}$/i

function record(value: unknown, name: string): Params {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParams(`${name} must be an object`)
  return value as Params
}

function topic(value: unknown, name: string): string {
  if (typeof value !== 'string' || !topicPattern.test(value)) throw invalidParams(`${name} must be a topic (64 hex characters)`)
  return value
}

function batch(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) throw invalidParams(`${name} must be an array`)
  if (value.length > maxBatch) throw invalidParams(`${name} may hold at most ${maxBatch} entries`)
  return value
}

const topics = (value: unknown) => batch(value, 'topics').map((entry, index) => topic(entry, `topics[${index}]`))

function message(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0) throw invalidParams(`${name} must be a non-empty string`)
  return value
}

function ttl(value: unknown, name: string, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalidParams(`${name} must be a whole number of seconds`)
  return value
}

// Other fields (prompt, attestation, correlationId and the rest of sign-client's "tvf" fields) are
// the relay's business only for push notifications and statistics, which this relay does not keep.
function publish(params: Params, prefix: string): Publish {
  const tag = params.tag ?? 0
  if (typeof tag !== 'number' || !Number.isInteger(tag) || tag < 0) throw invalidParams(`${prefix}tag must be a whole number`)
  return {
    topic: topic(params.topic, `${prefix}topic`),
    message: message(params.message, `${prefix}message`),
    ttlSeconds: ttl(params.ttl, `${prefix}ttl`),
    tag,
  }
}
