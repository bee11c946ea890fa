/** Shared between the recorder server (Node) and the test helper (Node and browser). */

export type Rule = {
  method?: string
  /** Path below the session prefix, e.g. '/api/v2/wallet/address'. */
  path: string
  /** Only requests whose headers (lowercase names) have these values. */
  when?: Record<string, string>
  /** How many requests this rule answers; unlimited when absent. */
  times?: number
  status?: number
  /** Envelope message. */
  message?: string
  /** The envelope's data, or the whole body when envelope is false. */
  body?: unknown
  envelope?: boolean
  /** Sends this text as is (text/plain). */
  raw?: string
  delayMs?: number
  /** Drops the connection without an answer. */
  destroy?: boolean
  /** Answers JSON-RPC with the request's id. */
  rpcResult?: unknown
  rpcError?: { code: number; message: string; data?: unknown }
}

export type RecordedRequest = {
  method: string
  path: string
  query: Record<string, string>
  headers: Record<string, string>
  body: string
  at: number
}
