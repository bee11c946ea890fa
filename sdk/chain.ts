import { RpcResponse } from 'ox'
import { BaseError, HttpRequestError, RpcRequestError, fallback, http } from 'viem'
import { SdkError, messages, normalizeError } from './errors.ts'

export type RpcRequest = { method: string; params?: unknown }

export type ChainClientOptions = {
  /** Tried in order; a URL that fails or answers non-OK passes the request to the next. */
  rpcUrls: readonly string[]
  fetch?: typeof fetch
  /**
   * Milliseconds one URL may take before it counts as failed and the next is tried. None by
   * default: the service clients set no HTTP timeout of their own; the caller's AbortSignal stops the whole request.
   */
  timeout?: number
}

/** An EIP-1193-shaped request function, usable as viem's `custom(chainClient)` transport. */
export type ChainClient = {
  request<T = unknown>(args: RpcRequest, options?: { signal?: AbortSignal }): Promise<T>
}

/** What one URL did, in the details of 'All RPC URLs failed'. */
export type RpcUrlFailure = { url: string; status?: number; error: string }

/**
 * JSON-RPC over HTTP to the chain's RPC URLs in order, a non-OK answer trying the next, on viem's http and fallback
 * transports: fixed order (no ranking), each URL once (no retries), all failing ends in
 * 'All RPC URLs failed'. Unlike viem's default, any JSON-RPC error in an OK answer is the node's
 * answer, not a failed URL: it stops the fallback and is thrown as ox's RpcResponse error with
 * the node's code. A JSON-RPC error in a non-OK answer still passes on to the next URL.
 */
export function createChainClient(options: ChainClientOptions): ChainClient {
  const transports = options.rpcUrls.map((url) =>
    http(url, {
      retryCount: 0,
      timeout: options.timeout ?? 0,
      ...(options.fetch ? { fetchFn: options.fetch } : {}),
    }),
  )
  return {
    async request<T>({ method, params }: RpcRequest, { signal }: { signal?: AbortSignal } = {}): Promise<T> {
      const failures: RpcUrlFailure[] = []
      if (transports.length === 0) throw allFailed(failures)
      // One fallback per request, so its hooks see only this request's attempts and signal.
      const shouldThrow = (error: Error) => signal?.aborted || nodeAnswer(error) !== undefined
      const transport = fallback(transports, { rank: false, retryCount: 0, shouldThrow })({ retryCount: 0 })
      transport.value?.onResponse((attempt) => {
        if (attempt.status === 'error') failures.push(describe(String(attempt.transport.value?.url), attempt.error))
      })
      try {
        const request = transport.request as (args: object, options: object) => Promise<T>
        return await request({ method, params: params ?? [] }, signal ? { signal } : {})
      } catch (error) {
        if (signal?.aborted) throw normalizeError(signal.reason ?? error)
        const answer = nodeAnswer(error)
        if (answer) throw toRpcError(answer)
        throw allFailed(failures, error)
      }
    },
  }
}

/** The JSON-RPC error a node sent in an OK (2xx) answer; viem keeps the status only for non-OK ones. */
function nodeAnswer(error: unknown): RpcRequestError | undefined {
  if (!(error instanceof BaseError)) return undefined
  const found = error.walk((e) => e instanceof RpcRequestError)
  return found instanceof RpcRequestError && found.status === undefined ? found : undefined
}

/** ox's class for a standard code; any other code (3 for a revert with data, say) is kept as is. */
function toRpcError(answer: RpcRequestError): RpcResponse.BaseError {
  const error = { code: answer.code, message: answer.details, data: answer.data }
  const parsed = RpcResponse.parseError(error)
  return parsed.code === error.code ? parsed : new RpcResponse.BaseError(error)
}

function describe(url: string, error: Error): RpcUrlFailure {
  const response = error instanceof BaseError ? error.walk((e) => e instanceof HttpRequestError || e instanceof RpcRequestError) : null
  const status = (response as { status?: number } | null)?.status
  const message = error instanceof BaseError ? error.details || error.shortMessage : error.message
  return { url, ...(status ? { status } : {}), error: message }
}

function allFailed(failures: RpcUrlFailure[], cause?: unknown): SdkError {
  return new SdkError(messages.allRpcFailed, { code: 'ALL_RPC_URLS_FAILED', details: failures, cause })
}
