import type { Transport } from '../../bridge/transport.ts'
import type { WalletConnectClient } from './client.ts'

/** A request for the wallet, on one of the session's chains. */
export type WalletRequest = { chainId: number; method: string; params: unknown[] }

/** The wallet's events the frame follows; anything else on the session is dropped. */
export type WalletEvent = { name: 'chainChanged'; data: unknown } | { name: 'accountsChanged'; data: unknown[] }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The event inside a sign-client `session_event` for `topic`, as its type says it is, or null. */
export function readWalletEvent(topic: string, value: unknown): WalletEvent | null {
  if (!isRecord(value) || value.topic !== topic || !isRecord(value.params) || !isRecord(value.params.event)) return null
  const { name, data } = value.params.event
  if (name === 'chainChanged' && data !== undefined) return { name, data }
  if (name === 'accountsChanged' && Array.isArray(data)) return { name, data }
  return null
}

/**
 * The frame's end of one WalletConnect session (through the relay) as a transport
 * (bridge/transport.ts): it posts requests to the wallet (a post resolves once the wallet has
 * answered; the answer itself is the account's business, account.ts), reads the wallet's events,
 * and ends once when the wallet ends the session or it expires. Once ended, posts reject.
 */
export function sessionTransport(wc: Pick<WalletConnectClient, 'client' | 'request'>, topic: string): Transport<WalletRequest, WalletEvent> {
  let over = false
  return {
    async post({ chainId, method, params }) {
      if (over) throw new Error('The WalletConnect session has ended')
      await wc.request(topic, chainId, method, params)
    },
    listen(handlers) {
      let done = false
      const onEvent = (value: unknown) => {
        const event = done ? null : readWalletEvent(topic, value)
        if (event) handlers.message(event)
      }
      const onEnd = (value: { topic: string }) => {
        if (done || value.topic !== topic) return
        over = true
        stop()
        handlers.ended?.()
      }
      const { client } = wc
      client.on('session_event', onEvent)
      client.on('session_delete', onEnd)
      client.on('session_expire', onEnd)
      const stop = () => {
        done = true
        // A scripted client in tests may have no `off`: `done` alone silences the listeners.
        client.off?.('session_event', onEvent)
        client.off?.('session_delete', onEnd)
        client.off?.('session_expire', onEnd)
      }
      return stop
    },
  }
}
