import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { isRpcRead } from '../../bridge/index.ts'
import type { Deps } from '../context.ts'
import { fail } from '../envelope.ts'

/**
 * What the public proxy forwards: the kit's read allowlist (the same list the host and the frame
 * use) and transactions their signer already signed. Anything else would let any page act as the
 * node's operator: anvil runs `eth_sendUnsignedTransaction` for any `from` (spending any wallet),
 * and its `anvil_*`, `evm_*`, `hardhat_*` and `debug_*` methods mint, impersonate and rewrite state.
 * Tests that need those use the chain's own RPC URL (sandbox.chains[i].rpcUrl).
 */
const isAllowed = (method: unknown) => typeof method === 'string' && (isRpcRead(method) || method === 'eth_sendRawTransaction')

type RpcRequest = { id?: unknown; method?: unknown }

const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id: id ?? null, error: { code, message } })

/** JSON-RPC proxy to each local chain's anvil at /rpc/:chainId, open to every origin like a public RPC. */
export function rpcRoutes(deps: Deps) {
  return new Hono()
    .use('*', cors({ origin: '*', allowMethods: ['POST', 'OPTIONS'], allowHeaders: ['content-type'], maxAge: 600 }))
    .post('/:chainId', async (c) => {
      const chain = deps.chains.find((candidate) => String(candidate.chainId) === c.req.param('chainId'))
      if (!chain) return fail(c, 404, 'Chain not found')
      const text = await c.req.text()
      let payload: unknown
      try {
        payload = JSON.parse(text)
      } catch {
        return c.json(rpcError(null, -32700, 'Parse error'))
      }
      const requests = (Array.isArray(payload) ? payload : [payload]) as RpcRequest[]
      if (requests.length === 0 || requests.some((request) => typeof request !== 'object' || request === null))
        return c.json(rpcError(null, -32600, 'Invalid request'))
      // One refused method refuses the whole batch: nothing of it reaches the chain.
      if (requests.some((request) => !isAllowed(request.method))) {
        const errors = requests.map((request) => rpcError(request.id, -32601, `Method not available through the sandbox RPC proxy`))
        return c.json(Array.isArray(payload) ? errors : errors[0])
      }
      const upstream = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }).catch(
        () => undefined,
      )
      if (!upstream) return fail(c, 502, 'Chain unavailable')
      return c.body(await upstream.text(), upstream.status as 200, { 'Content-Type': 'application/json' })
    })
}
