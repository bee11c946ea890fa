import { checkRpcRequest, ErrorCode, type RpcRequest } from '../bridge/index.ts'
import type { Connection } from './connection.ts'
import { createEmitter } from './emitter.ts'
import { toProviderError, unwrap } from './errors.ts'

export type EIP1193Provider = {
  request(args: RpcRequest): Promise<unknown>
  on(event: string, listener: (...args: never[]) => void): void
  removeListener(event: string, listener: (...args: never[]) => void): void
}

/** Per-kind bridge timeouts: reads are short, signing waits for a person, connecting waits while the modal is open. */
const timeouts = { read: 15_000, sign: 10 * 60_000 } as const
const waitsForUser = new Set(['eth_requestAccounts', 'wallet_requestPermissions'])
const signs = /^(personal_sign|eth_sign|eth_signTypedData.*|eth_sendTransaction|eth_signTransaction|wallet_sendCalls)$/

function timeoutFor(method: string): number | undefined {
  if (waitsForUser.has(method)) return undefined
  return signs.test(method) ? timeouts.sign : timeouts.read
}

export function createProvider(connection: Connection) {
  const events = createEmitter()

  async function request(args: RpcRequest): Promise<unknown> {
    const reason = checkRpcRequest(args)
    if (reason) throw toProviderError({ code: ErrorCode.invalidParams, message: `Invalid request: ${reason}` })
    const { method, params } = args
    const answer = await connection.call('request', [params === undefined ? { method } : { method, params }], timeoutFor(method))
    return unwrap(answer)
  }

  const provider: EIP1193Provider = { request, on: events.on, removeListener: events.removeListener }
  return { provider, events }
}
