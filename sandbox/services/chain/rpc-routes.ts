import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { isRpcRead } from '../../../bridge/index.ts'
import type { Deps } from '../../context.ts'
import { fail } from '../../http/envelope.ts'

/**
 * What the public proxy forwards: the kit's read allowlist (the same list the host and the frame
 * use) and transactions their signer already signed. Anything else would let any page act as the
 * node's operator: anvil runs `eth_sendUnsignedTransaction` for any `from` (spending any wallet),
 * and its `anvil_*`, `evm_*`, `hardhat_*` and `debug_*` methods mint, impersonate and rewrite state.
 * Tests that need those use the chain's own RPC URL (sandbox.chains[i].rpcUrl).
 */
const isAllowed = (method: unknown) => typeof method === 'string' && (isRpcRead(method) || method === 'eth_sendRawTransaction')

/**
 * anvil does not cap the gas of a simulated call at the block gas limit: a page asking for 2^48 gas
 * for a loop would pin a core for hours and stall every transaction behind it. Calls get at most a
 * block's worth (anvil's default block gas limit), as on a public chain.
 */
const maxCallGas = 30_000_000n
const simulations = new Set(['eth_call', 'eth_estimateGas', 'eth_createAccessList'])
/** A batch answers within one proxy request: a page wanting more sends more requests, each rate-limited by its cost. */
const maxBatch = 100

type RpcRequest = { id?: unknown; method?: unknown; params?: unknown }

/** Why one request is not served, as a JSON-RPC error, or undefined. */
function refusal(request: RpcRequest): [number, string] | undefined {
  if (!isAllowed(request.method)) return [-32601, 'Method not available through the sandbox RPC proxy']
  // anvil never answers a notification: it would hold the proxy request until it times out.
  if (request.id === undefined) return [-32600, 'Invalid request: notifications (no id) are not served']
  if (simulations.has(request.method as string)) {
    const gas = (Array.isArray(request.params) ? (request.params[0] as { gas?: unknown } | undefined) : undefined)?.gas
    if (gas !== undefined && gas !== null) {
      let value: bigint
      try {
        value = BigInt(gas as string)
      } catch {
        return [-32602, 'Invalid params: gas must be a hex quantity']
      }
      if (value > maxCallGas) return [-32602, `Invalid params: gas above the block gas limit (${maxCallGas})`]
    }
  }
  return undefined
}

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
      if (requests.length === 0 || requests.some((request) => typeof request !== 'object' || request === null || Array.isArray(request)))
        return c.json(rpcError(null, -32600, 'Invalid request'))
      if (requests.length > maxBatch) return c.json(rpcError(null, -32600, `Invalid request: at most ${maxBatch} requests in a batch`))
      // One refused request refuses the whole batch: nothing of it reaches the chain.
      const refusals = requests.map(refusal)
      if (refusals.some(Boolean)) {
        const errors = requests.map((request, i) => {
          const [code, message] = refusals[i] ?? refusals.find(Boolean)!
          return rpcError(request.id, code, refusals[i] ? message : `Not sent: another request of the batch was refused (${message})`)
        })
        return c.json(Array.isArray(payload) ? errors : errors[0])
      }
      const upstream = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }).catch(() => undefined)
      if (!upstream) return fail(c, 502, 'Chain unavailable')
      return c.body(await upstream.text(), upstream.status as 200, { 'Content-Type': 'application/json' })
    })
}
