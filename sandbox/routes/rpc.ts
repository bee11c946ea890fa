import { Hono } from 'hono'
import { cors } from 'hono/cors'
import type { Deps } from '../context.ts'
import { fail } from '../envelope.ts'

// Anvil unlocks its dev accounts and has admin methods; through the public proxy those would let any
// page mint ETH or spend the faucet. Tests that need them use the anvil URL createSandbox returns.
const blockedPrefixes = ['anvil_', 'evm_', 'hardhat_', 'ganache_', 'personal_', 'admin_', 'miner_', 'debug_setHead']
const blockedMethods = new Set(['eth_sendTransaction', 'eth_sign', 'eth_signTransaction', 'eth_signTypedData', 'eth_signTypedData_v3', 'eth_signTypedData_v4'])

const isBlocked = (method: unknown) =>
  typeof method !== 'string' || blockedMethods.has(method) || blockedPrefixes.some((prefix) => method.startsWith(prefix))

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
      if (requests.some((request) => isBlocked(request.method))) {
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
