import { RpcResponse } from 'ox'
import { SdkError, messages, normalizeError } from './errors.ts'

export type RpcRequest = { method: string; params?: unknown }

export type ChainClientOptions = {
  /** Tried in order; a URL that fails or answers non-OK passes the request to the next. */
  rpcUrls: readonly string[]
  fetch?: typeof fetch
}

/** An EIP-1193-shaped request function, usable as viem's `custom(chainClient)` transport. */
export type ChainClient = {
  request<T = unknown>(args: RpcRequest, options?: { signal?: AbortSignal }): Promise<T>
}

/**
 * JSON-RPC 2.0 over HTTP with URL fallback (SPEC.md section 7). viem's fallback transport ranks
 * and retries, and ends with the last URL's error; here the order is fixed, every URL is tried
 * once and the end is 'All RPC URLs failed'. A JSON-RPC error answer is a real answer: it is
 * thrown as ox's matching RpcResponse error (numeric code kept) without trying further URLs.
 */
export function createChainClient(options: ChainClientOptions): ChainClient {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  let id = 0
  return {
    async request<T>({ method, params }: RpcRequest, { signal }: { signal?: AbortSignal } = {}): Promise<T> {
      const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] })
      const failures: { url: string; status?: number; error?: string }[] = []
      for (const url of options.rpcUrls) {
        let response: Response
        let text: string
        try {
          response = await doFetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
            ...(signal ? { signal } : {}),
          })
          text = await response.text()
        } catch (error) {
          if (signal?.aborted) throw normalizeError(signal.reason ?? error)
          failures.push({ url, error: error instanceof Error ? error.message : String(error) })
          continue
        }
        if (!response.ok) {
          failures.push({ url, status: response.status })
          continue
        }
        let message: { result?: unknown; error?: { code: number; message: string; data?: unknown } }
        try {
          message = JSON.parse(text)
        } catch {
          failures.push({ url, status: response.status, error: 'Invalid JSON-RPC answer' })
          continue
        }
        if (message.error) throw RpcResponse.parseError(message.error)
        return message.result as T
      }
      throw new SdkError(messages.allRpcFailed, { code: 'ALL_RPC_URLS_FAILED', details: failures })
    },
  }
}
