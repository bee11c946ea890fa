import { isRecord } from '../../bridge/validate.ts'

/** Whether the other side is still reading (sandbox/services/popup/channel.ts). */
export type Peer = 'unseen' | 'here' | 'gone'

export type Channel = {
  readonly id: string
  /** Writes a message for the other side; rejects when the server refuses it. */
  post(message: Record<string, unknown>): Promise<void>
  /** The same, for a page that is unloading (a keepalive request outlives it). */
  postOnUnload(message: Record<string, unknown>): void
  /**
   * Reads the other side's messages until `stop`; each is a record with a string `type`, anything
   * else is dropped. `ended` is called once, and reading stops, when the server says the channel is
   * over (410: it outlived its lifetime): nothing more can come through it.
   */
  listen(handlers: { message(message: Record<string, unknown> & { type: string }): void; peer?(peer: Peer): void; ended?(): void }, waitMs?: number): () => void
}

/** 32 random bytes, base64url: the channel's name and its only key. */
export function newChannelId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/**
 * One side of the popup channel between the wallet frame and its secure window, through the
 * provider's own server (same origin as both pages).
 */
export function openChannel(id: string, side: 'frame' | 'popup', origin = location.origin): Channel {
  const url = `${origin}/popup-channel/${id}/${side}`
  const send = (message: Record<string, unknown>, keepalive: boolean) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message), keepalive })
  return {
    id,
    async post(message) {
      const response = await send(message, false)
      if (!response.ok) throw new Error(`The secure window channel refused a message (${response.status})`)
    },
    postOnUnload(message) {
      void send(message, true).catch(() => {})
    },
    listen(handlers, waitMs = 15_000) {
      const abort = new AbortController()
      void (async () => {
        let after = 0
        while (!abort.signal.aborted) {
          try {
            const response = await fetch(`${url}?after=${after}&wait=${waitMs}`, { signal: abort.signal, cache: 'no-store' })
            if (response.status === 410) {
              abort.abort()
              return handlers.ended?.()
            }
            if (!response.ok) throw new Error(String(response.status))
            const body: unknown = await response.json()
            if (!isRecord(body) || !Array.isArray(body.messages) || !Number.isSafeInteger(body.next)) throw new Error('malformed')
            after = body.next as number
            for (const message of body.messages)
              if (!abort.signal.aborted && isRecord(message) && typeof message.type === 'string')
                handlers.message(message as Record<string, unknown> & { type: string })
            if (!abort.signal.aborted && (body.peer === 'unseen' || body.peer === 'here' || body.peer === 'gone')) handlers.peer?.(body.peer)
          } catch {
            if (abort.signal.aborted) return
            // The server restarting, a network blip: try again shortly, never spin.
            await new Promise((resolve) => setTimeout(resolve, 1000))
          }
        }
      })()
      return () => abort.abort()
    },
  }
}
