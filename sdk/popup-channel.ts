/**
 * The client of the popup channel: the mailbox on the provider's own server through which the
 * wallet frame and the secure window it opened talk (docs/popup-channel.md has the wire). Each side
 * writes with POST and reads the other side's messages with a long-polling GET, so it works where
 * postMessage and BroadcastChannel cannot: a host page that sends Cross-Origin-Opener-Policy, or a
 * browser that partitions or blocks the frame's storage.
 */

export type PopupSide = 'frame' | 'popup'

/** Whether the other side is still reading: not yet, now, or no longer (its page went away). */
export type PopupPeer = 'unseen' | 'here' | 'gone'

/** The request the frame shows: the window needs its id (a decision names it) and its kind. */
export type PopupConfirmation = { readonly id: number; readonly kind: string }

/** Why the frame opened the window: a confirmation, a sign-in, or showing the wallet's key. */
export type PopupPurpose = 'confirm' | 'login' | 'export-key'

/**
 * What the window needs to fetch the key itself: the frame's wallet token (the step-up proof is bound
 * to that session) and the proof, spent by the window's one call. The key never comes this way.
 */
export type ExportKeyHandoff = { type: 'export-key'; walletToken: string; stepUpProof: string }

/**
 * What the frame writes, in the order it writes it: `open` first, then `state` per change (or, to
 * export the key, one `export-key` once the window said hello), then `done`.
 */
export type FrameMessage =
  | { type: 'open'; purpose: PopupPurpose; hostOrigin: string }
  | { type: 'state'; confirmation: PopupConfirmation; queued: number }
  | ExportKeyHandoff
  | { type: 'done' }

/** What the frame reads: the window's own messages, and the service's `session` handoff (once per channel). */
export type PopupMessage =
  | { type: 'hello' }
  | { type: 'decision'; id: number; approve: boolean; all?: boolean }
  | { type: 'closed' }
  | { type: 'session'; result: unknown }

type Outgoing<S extends PopupSide> = S extends 'frame' ? FrameMessage : Exclude<PopupMessage, { type: 'session' }>
type Incoming<S extends PopupSide> = S extends 'frame' ? PopupMessage : FrameMessage

export type PopupChannelHandlers<S extends PopupSide> = {
  /** Each well-formed message of the other side, in the order it was written. */
  message(message: Incoming<S>): void
  /** Whether the other side is reading, after each answer. */
  peer?(peer: PopupPeer): void
  /** Once, and reading stops: the channel outlived its lifetime (410), nothing more can come. */
  ended?(): void
}

export type PopupChannel<S extends PopupSide> = {
  readonly id: string
  readonly side: S
  /** Writes a message for the other side; rejects with the server's status when it refuses it. */
  post(message: Outgoing<S>): Promise<void>
  /** The same from a page that is unloading: a keepalive request outlives the page; nothing to wait for. */
  postOnUnload(message: Outgoing<S>): void
  /** Reads until the returned function is called. `waitMs`: how long one read may wait on the server. */
  listen(handlers: PopupChannelHandlers<S>, waitMs?: number): () => void
}

export type PopupChannelOptions = {
  /** The provider origin that serves /popup-channel; the page's own origin by default. */
  origin?: string
  fetch?: typeof fetch
  /** Pause after a failed read (a server restart, a network blip) before the next: never spin. */
  retryMs?: number
}

/** A channel's name: 32 random bytes in base64url without padding (43 characters). It is the only key. */
export function newPopupChannelId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

export const popupChannelIdPattern = /^[A-Za-z0-9_-]{43}$/

export class PopupChannelError extends Error {
  override readonly name = 'PopupChannelError'
  constructor(readonly status: number) {
    super(`The secure window channel refused a message (${status})`)
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A step-up proof as the service writes it (a prefix and 32 random bytes in base64url). */
const stepUpProofPattern = /^sup_[A-Za-z0-9_-]{43}$/
/** A wallet token: a compact JWT, bounded (the channel keeps each message for its whole life). */
const walletTokenPattern = /^[A-Za-z0-9_-]{1,4096}\.[A-Za-z0-9_-]{1,4096}\.[A-Za-z0-9_-]{1,1024}$/

const isExportKeyHandoff = (m: Record<string, unknown>) =>
  Object.keys(m).length === 3 &&
  typeof m.walletToken === 'string' &&
  walletTokenPattern.test(m.walletToken) &&
  typeof m.stepUpProof === 'string' &&
  stepUpProofPattern.test(m.stepUpProof)

/** The other side's message as its type says it is, or null (dropped): a reader never trusts the wire. */
export function readPopupMessage<S extends PopupSide>(reader: S, value: unknown): Incoming<S> | null {
  if (!isRecord(value) || typeof value.type !== 'string') return null
  const m = value
  const ok =
    reader === 'frame'
      ? m.type === 'hello' ||
        m.type === 'closed' ||
        (m.type === 'decision' && Number.isSafeInteger(m.id) && typeof m.approve === 'boolean' && (m.all === undefined || typeof m.all === 'boolean')) ||
        (m.type === 'session' && 'result' in m)
      : m.type === 'done' ||
        (m.type === 'open' && (m.purpose === 'confirm' || m.purpose === 'login' || m.purpose === 'export-key') && typeof m.hostOrigin === 'string') ||
        (m.type === 'export-key' && isExportKeyHandoff(m)) ||
        (m.type === 'state' &&
          isRecord(m.confirmation) &&
          Number.isSafeInteger(m.confirmation.id) &&
          typeof m.confirmation.kind === 'string' &&
          Number.isSafeInteger(m.queued))
  return ok ? (m as Incoming<S>) : null
}

/** One side of the channel named `id`. */
export function openPopupChannel<S extends PopupSide>(id: string, side: S, options: PopupChannelOptions = {}): PopupChannel<S> {
  const { origin = location.origin, fetch: fetcher = globalThis.fetch.bind(globalThis), retryMs = 1000 } = options
  const url = `${origin}/popup-channel/${id}/${side}`
  const send = (message: Outgoing<S>, keepalive: boolean) =>
    fetcher(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message), keepalive })
  return {
    id,
    side,
    async post(message) {
      const response = await send(message, false)
      if (!response.ok) throw new PopupChannelError(response.status)
    },
    postOnUnload(message) {
      void send(message, true).catch(() => {})
    },
    listen(handlers, waitMs = 15_000) {
      const abort = new AbortController()
      const { signal } = abort
      void (async () => {
        let after = 0
        while (!signal.aborted) {
          try {
            const response = await fetcher(`${url}?after=${after}&wait=${waitMs}`, { signal, cache: 'no-store' })
            if (response.status === 410) {
              abort.abort()
              return handlers.ended?.()
            }
            if (!response.ok) throw new PopupChannelError(response.status)
            const body: unknown = await response.json()
            if (!isRecord(body) || !Array.isArray(body.messages) || !Number.isSafeInteger(body.next)) throw new Error('malformed answer')
            after = body.next as number
            for (const value of body.messages) {
              const message = readPopupMessage(side, value)
              if (message && !signal.aborted) handlers.message(message)
            }
            if (!signal.aborted && (body.peer === 'unseen' || body.peer === 'here' || body.peer === 'gone')) handlers.peer?.(body.peer)
          } catch {
            if (signal.aborted) return
            await new Promise((resolve) => setTimeout(resolve, retryMs))
          }
        }
      })()
      return () => abort.abort()
    },
  }
}
