import { ProviderRpcError, toProviderError } from '../bridge/error-classes.ts'
import { checkRpcRequest, ErrorCode, isChainOffered, methodOf, timeouts, type HostEvent, type Result, type RpcError, type RpcRequest } from '../bridge/index.ts'

export type EIP1193Provider = {
  request(args: RpcRequest): Promise<unknown>
  on(event: string, listener: (...args: never[]) => void): void
  removeListener(event: string, listener: (...args: never[]) => void): void
}

type Listener = (...args: never[]) => void

/** The EIP-1193 event surface: `on` / `removeListener`, plus `emit` for the kit itself. */
function createEmitter() {
  const listeners = new Map<string, Set<Listener>>()
  return {
    on(event: string, fn: Listener) {
      listeners.set(event, (listeners.get(event) ?? new Set<Listener>()).add(fn))
    },
    removeListener(event: string, fn: Listener) {
      listeners.get(event)?.delete(fn)
    },
    emit(event: string, payload: unknown) {
      for (const fn of [...(listeners.get(event) ?? [])]) {
        try {
          ;(fn as (p: unknown) => void)(payload)
        } catch (err) {
          // A listener's bug must not stop the others or the kit.
          console.error(err)
        }
      }
    },
  }
}

/** A frame's answer as its result, or thrown as the error class of its code (the bridge's classes, which dapps import). */
export function unwrap<T>(result: Result<T>): T {
  if ('error' in result) throw toProviderError(result.error)
  return result.result
}

/** 4900: the wallet frame, or the browser wallet, is not there to answer. */
export const disconnected = (message: string): RpcError => ({ code: ErrorCode.disconnected, message })

/** Sends a checked request on (to the wallet frame, or the connected browser wallet). */
export type Route = (request: RpcRequest, timeout: number | undefined) => Promise<unknown>

/**
 * The EIP-1193 provider a dapp sees. Every request is checked here before anything is sent: a
 * malformed request is -32602, a method that is neither a wallet method nor on the read allowlist
 * 4200 (the method table, bridge/rpc-methods.ts), a chain the page's own list leaves out 4902.
 * Whoever acts on it parses its params with the same table, once: the wallet frame, or the kit
 * before a browser wallet gets it (kit.ts). Events are re-emitted once per change (the widget and
 * a browser wallet may both report the same account).
 */
export function createProvider(chains: readonly number[], route: Route) {
  const listeners = createEmitter()
  const state = { accounts: [] as readonly string[], chainId: undefined as unknown }

  function emit(event: HostEvent, payload: unknown): void {
    if (event === 'accountsChanged') {
      const accounts = Array.isArray(payload) ? (payload as string[]) : []
      if (accounts.join() === state.accounts.join()) return
      state.accounts = accounts
    } else if (event === 'chainChanged') {
      if (payload === state.chainId) return
      state.chainId = payload
    } else if (event === 'connect') {
      state.chainId = (payload as { chainId?: unknown } | null)?.chainId
    } else if (event === 'disconnect') {
      const { code, message } = (payload ?? {}) as { code?: number; message?: string }
      payload = new ProviderRpcError(code ?? ErrorCode.disconnected, message ?? 'Disconnected')
    }
    listeners.emit(event, payload)
  }

  async function request(args: RpcRequest): Promise<unknown> {
    // One copy, read once: what is checked here and by the frame is exactly what is sent on (a
    // getter or a later change to the caller's object cannot turn a checked request into another).
    let copy: RpcRequest
    try {
      copy = structuredClone(args)
    } catch (err) {
      throw new ProviderRpcError(ErrorCode.invalidParams, `Invalid request: ${(err as Error).message}`)
    }
    const reason = checkRpcRequest(copy)
    if (reason) throw new ProviderRpcError(ErrorCode.invalidParams, `Invalid request: ${reason}`)
    const { method, params } = copy
    const known = methodOf(method)
    if (!known) throw new ProviderRpcError(ErrorCode.unsupportedMethod, `Unsupported method: ${method}`)
    if (known[1] === 'chain' && chains.length) {
      // A chain this page does not name is refused here; with no list of its own, the frame judges
      // (for a browser wallet, the kit judges by the chains the frame offered at handshake).
      const chainId = (params as [{ chainId?: unknown }?] | undefined)?.[0]?.chainId
      // String() first: Number() and template strings throw on a symbol.
      const id = String(chainId)
      if (chainId !== undefined && !isChainOffered(Number(id), chains))
        throw new ProviderRpcError(ErrorCode.unknownChain, `Unrecognized chain ${id}: this app offers ${chains.join(', ')}`)
    }
    return route(params === undefined ? { method } : { method, params }, timeouts[known[1]])
  }

  const provider: EIP1193Provider = { request, on: listeners.on, removeListener: listeners.removeListener }
  return { provider, emit, state, listeners }
}
