import { WebSocket, type RawData } from 'ws'
import type { RelayLimits } from './limits.ts'
import type { StoredMessage } from './mailbox.ts'
import { RpcError, errorFrame, readFrame, resultFrame, rpcCodes, type RpcId } from './rpc.ts'

/** One client socket: who it is (the client id from its auth token), what it is subscribed to, what it has not acknowledged. */
export type Connection = {
  readonly clientId: string
  /** The peer's address as the relay counts it (rate-limit.ts's ipKey): a client id is a key anyone can make, an address is not. */
  readonly source: string
  readonly socket: WebSocket
  readonly topics: Set<string>
  /** Pushes sent and not acknowledged yet, by push id; and the same messages as a set, so none is pushed twice. */
  readonly inFlight: Map<RpcId, StoredMessage>
  readonly inFlightMessages: Set<StoredMessage>
  /** Whether the socket showed life (a pong or a frame) since the last ping. */
  alive: boolean
  frames: { count: number; resetAt: number }
}

/** What the relay does for a connection's frames. */
export type ConnectionHandlers = {
  /** Runs one request; may throw an RpcError. `later` runs after the answer is sent (stored messages follow a subscribe's answer). */
  call(connection: Connection, method: string, params: unknown, later: (task: () => void) => void): unknown
  acknowledge(connection: Connection, id: RpcId): void
  closed(connection: Connection): void
}

/**
 * Pushes a client may leave unacknowledged. Past it nothing more is pushed to that socket: the rest
 * waits in the mailbox until acknowledgements come, or for its next subscribe or fetch. (Forgetting
 * the oldest instead let a client that never acknowledges have everything pushed again on every
 * subscribe.)
 */
export const maxInFlight = 1_000

export function openConnection(
  socket: WebSocket,
  { clientId, source }: { clientId: string; source: string },
  limits: RelayLimits,
  handlers: ConnectionHandlers,
): Connection {
  const connection: Connection = {
    clientId,
    source,
    socket,
    topics: new Set(),
    inFlight: new Map(),
    inFlightMessages: new Set(),
    alive: true,
    frames: { count: 0, resetAt: Date.now() + 60_000 },
  }
  // ws closes the socket itself after an error (1009 for an oversized frame, 1002 for a protocol
  // error); without a listener the error would be thrown and take the sandbox down.
  socket.on('error', () => {})
  socket.on('pong', () => {
    connection.alive = true
  })
  socket.on('close', () => handlers.closed(connection))
  socket.on('message', (data, isBinary) => {
    try {
      onFrame(connection, data, isBinary, limits, handlers)
    } catch {
      // A bug must cost this socket, never the relay.
      socket.terminate()
    }
  })
  return connection
}

function onFrame(connection: Connection, data: RawData, isBinary: boolean, limits: RelayLimits, handlers: ConnectionHandlers) {
  connection.alive = true
  const now = Date.now()
  if (connection.frames.resetAt <= now) connection.frames = { count: 0, resetAt: now + 60_000 }
  if (++connection.frames.count > limits.framesPerMinute) {
    connection.socket.close(1008, 'Too many frames')
    return
  }
  if (isBinary) {
    send(connection, errorFrame(null, new RpcError(rpcCodes.invalidRequest, 'Invalid request: binary frames are not supported')), limits)
    return
  }
  const frame = readFrame(toText(data))
  if (frame.kind === 'notification') return
  if (frame.kind === 'response') return handlers.acknowledge(connection, frame.id)
  if (frame.kind === 'invalid') return send(connection, errorFrame(frame.id, frame.error), limits)

  const tasks: (() => void)[] = []
  let answer: string
  try {
    answer = resultFrame(
      frame.id,
      handlers.call(connection, frame.method, frame.params, (task) => tasks.push(task)),
    )
  } catch (error) {
    tasks.length = 0
    answer = errorFrame(frame.id, error instanceof RpcError ? error : new RpcError(-32603, 'Internal error'))
  }
  send(connection, answer, limits)
  for (const task of tasks) task()
}

function toText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}

/** Sends one frame, unless the socket is closing or stuck: a client that reads nothing is dropped rather than buffered for. */
export function send(connection: Connection, text: string, limits: Pick<RelayLimits, 'bufferedBytes'>) {
  const { socket } = connection
  if (socket.readyState !== WebSocket.OPEN) return
  if (socket.bufferedAmount > limits.bufferedBytes) {
    socket.terminate()
    return
  }
  socket.send(text)
}

/** Records a push as sent, on the socket and on the message (so that dropping the message drops the record). */
export function track(connection: Connection, id: RpcId, stored: StoredMessage) {
  connection.inFlight.set(id, stored)
  connection.inFlightMessages.add(stored)
  stored.pushedTo.set(connection, id)
}

/** Forgets a push: acknowledged, or its message left the mailbox (expired or made way). */
export function untrack(connection: Connection, stored: StoredMessage) {
  const id = stored.pushedTo.get(connection)
  if (id !== undefined) connection.inFlight.delete(id)
  connection.inFlightMessages.delete(stored)
  stored.pushedTo.delete(connection)
}
