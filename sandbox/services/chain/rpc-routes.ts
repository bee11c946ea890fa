import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { isRpcRead } from '../../../bridge/index.ts'
import type { Deps } from '../../context.ts'
import { fail } from '../../http/exchange.ts'
import { clientIp } from '../../http/rate-limit.ts'

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
 * block's worth (anvil's default block gas limit), as on a public chain. Every way a request can
 * raise a simulation's gas is checked: the call's own `gas`, and the block overrides' `gasLimit`
 * (eth_call's and eth_estimateGas's fourth param), which is also the default gas of a call that
 * names none. anvil has no per-call time limit, so the gas bound is the time bound: at the cap, a
 * simulation runs well under a second.
 */
const maxCallGas = 30_000_000n
/** The most params each simulation takes: (tx, block, state overrides, block overrides); eth_createAccessList (tx, block). */
const simulations = new Map([
  ['eth_call', 4],
  ['eth_estimateGas', 4],
  ['eth_createAccessList', 2],
])
/** A batch answers within one proxy request: a page wanting more sends more requests, each rate-limited by its cost. */
const maxBatch = 100
/**
 * The simulated gas one proxy request may ask for, a call without `gas` counting as the cap: ten
 * blocks' worth, so a batch's simulations also end within a few seconds.
 */
const maxBatchGas = 10n * maxCallGas
/**
 * How long the proxy waits for the chain. Each simulation is bounded by its gas; this answers a
 * clear JSON-RPC error rather than holding the page's request if the chain is stuck anyway.
 */
const upstreamTimeoutMs = 15_000

/**
 * Requests one client (its per-IP key, http/rate-limit.ts ipKey) may have at the chain at once, and
 * how many more may wait their turn; past that a request is refused (HTTP 429, -32005). The chain
 * answers one request after another: a page sending 30 capped batches at once held every other
 * caller (the bundler, the faucet, every page) ~16 s behind them. Now one client waits behind its own.
 */
const maxInFlightPerClient = 2
const maxWaitingPerClient = 32

/** Runs each client's requests at most maxInFlightPerClient at a time, in the order they came; undefined when the client's queue is full. */
function createTurns() {
  const clients = new Map<string, { running: number; waiting: (() => void)[] }>()
  return async function inTurn<T>(key: string, task: () => Promise<T>): Promise<T | undefined> {
    let client = clients.get(key)
    if (!client) {
      client = { running: 0, waiting: [] }
      clients.set(key, client)
    }
    const own = client
    if (own.running >= maxInFlightPerClient) {
      if (own.waiting.length >= maxWaitingPerClient) return undefined
      await new Promise<void>((resolve) => own.waiting.push(resolve))
    }
    own.running += 1
    try {
      return await task()
    } finally {
      own.running -= 1
      const next = own.waiting.shift()
      if (next) next()
      else if (own.running === 0) clients.delete(key)
    }
  }
}

/** Code a state override puts in place: no larger than deployed code may be (EIP-170). */
const maxOverrideCode = 0x6000
/** State overrides: few accounts and storage slots, each account only the fields geth and anvil define. */
const maxOverrideAccounts = 32
const maxOverrideSlots = 256
const overrideFields = new Set(['balance', 'nonce', 'code', 'state', 'stateDiff'])

type RpcRequest = { id?: unknown; method?: unknown; params?: unknown }
type Refusal = [number, string]

const invalid = (message: string): Refusal => [-32602, `Invalid params: ${message}`]

/** A gas amount: undefined when absent, or a refusal when not a quantity or above the cap. */
function gasOf(value: unknown, what: string): bigint | Refusal | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' && typeof value !== 'number') return invalid(`${what} must be a hex quantity`)
  let amount: bigint
  try {
    amount = BigInt(value)
  } catch {
    return invalid(`${what} must be a hex quantity`)
  }
  if (amount > maxCallGas) return invalid(`${what} above the block gas limit (${maxCallGas})`)
  return amount
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function stateOverrideRefusal(overrides: unknown): Refusal | undefined {
  if (overrides === undefined || overrides === null) return undefined
  if (!isObject(overrides)) return invalid('state overrides must be an object')
  const accounts = Object.values(overrides)
  if (accounts.length > maxOverrideAccounts) return invalid(`at most ${maxOverrideAccounts} accounts in state overrides`)
  let slots = 0
  for (const account of accounts) {
    if (!isObject(account)) return invalid('each state override must be an object')
    const unknown = Object.keys(account).find((key) => !overrideFields.has(key))
    if (unknown !== undefined) return invalid(`state override field ${unknown} is not supported`)
    const { code, state, stateDiff } = account
    if (code !== undefined && code !== null && (typeof code !== 'string' || code.length > 2 + 2 * maxOverrideCode))
      return invalid(`state override code must be hex of at most ${maxOverrideCode} bytes`)
    for (const storage of [state, stateDiff]) {
      if (storage === undefined || storage === null) continue
      if (!isObject(storage)) return invalid('state override storage must be an object')
      slots += Object.keys(storage).length
    }
  }
  return slots > maxOverrideSlots ? invalid(`at most ${maxOverrideSlots} storage slots in state overrides`) : undefined
}

/** The gas a simulation may use (the cap when it names none), or why it is refused. */
function simulationGas(request: RpcRequest, maxParams: number): bigint | Refusal {
  const params = request.params ?? []
  if (!Array.isArray(params)) return invalid('params must be a list')
  if (params.length > maxParams) return invalid(`${request.method} takes at most ${maxParams} params`)
  const [call, , stateOverrides, blockOverrides] = params
  if (call !== undefined && !isObject(call)) return invalid('the call must be an object')
  let gas = maxCallGas
  // `gasLimit` is not a field of a call today; refused above the cap in case a node takes it as `gas`.
  for (const key of ['gas', 'gasLimit']) {
    const amount = gasOf(call?.[key], key)
    if (Array.isArray(amount)) return amount
    if (amount !== undefined && amount < gas) gas = amount
  }
  const state = stateOverrideRefusal(stateOverrides)
  if (state) return state
  if (blockOverrides !== undefined && blockOverrides !== null) {
    if (!isObject(blockOverrides)) return invalid('block overrides must be an object')
    // Any spelling of the block's gas limit (gasLimit, gas_limit, gaslimit...) is held to the cap.
    for (const [key, value] of Object.entries(blockOverrides)) {
      if (!/gas/i.test(key)) continue
      const amount = gasOf(value, `block override ${key}`)
      if (Array.isArray(amount)) return amount
    }
  }
  return gas
}

/** Why one request is not served, as a JSON-RPC error, or undefined; with the gas it may simulate. */
function check(request: RpcRequest): { refusal?: Refusal; gas: bigint } {
  if (!isAllowed(request.method)) return { refusal: [-32601, 'Method not available through the sandbox RPC proxy'], gas: 0n }
  // anvil never answers a notification: it would hold the proxy request until it times out.
  if (request.id === undefined) return { refusal: [-32600, 'Invalid request: notifications (no id) are not served'], gas: 0n }
  const maxParams = simulations.get(request.method as string)
  if (maxParams === undefined) return { gas: 0n }
  const gas = simulationGas(request, maxParams)
  return Array.isArray(gas) ? { refusal: gas, gas: 0n } : { gas }
}

const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id: id ?? null, error: { code, message } })

/**
 * Sends what was checked (never the page's own text, which a parser reading it differently could
 * take for more: a repeated key, which JSON.parse settles by the last one) and reads the answer,
 * both within upstreamTimeoutMs.
 */
async function forward(rpcUrl: string, body: string): Promise<{ status: number; text: string } | 'timeout' | 'unavailable'> {
  try {
    const signal = AbortSignal.timeout(upstreamTimeoutMs)
    const upstream = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal })
    return { status: upstream.status, text: await upstream.text() }
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? 'timeout' : 'unavailable'
  }
}

/** JSON-RPC proxy to each local chain's anvil at /rpc/:chainId, open to every origin like a public RPC. */
export function rpcRoutes(deps: Deps) {
  const inTurn = createTurns()
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
      const checks = requests.map(check)
      const total = checks.reduce((sum, { gas }) => sum + gas, 0n)
      const refusals = checks.map(({ refusal }) => refusal)
      if (!refusals.some(Boolean) && total > maxBatchGas)
        refusals[0] = invalid(`a batch may simulate at most ${maxBatchGas} gas in all (a call naming no gas counts ${maxCallGas}); send fewer at once`)
      if (refusals.some(Boolean)) {
        const errors = requests.map((request, i) => {
          const [code, message] = refusals[i] ?? refusals.find(Boolean)!
          return rpcError(request.id, code, refusals[i] ? message : `Not sent: another request of the batch was refused (${message})`)
        })
        return c.json(Array.isArray(payload) ? errors : errors[0])
      }
      // What was checked is what is sent: the page's own text could say more to a parser that reads
      // it differently (a repeated key, which JSON.parse settles by the last one).
      const answer = await inTurn(clientIp(c), () => forward(chain.rpcUrl, JSON.stringify(payload)))
      if (answer === undefined) {
        const message = `Too many requests at once from your address (at most ${maxInFlightPerClient} at the chain and ${maxWaitingPerClient} waiting): send fewer at once`
        const errors = requests.map((request) => rpcError(request.id, -32005, message))
        return c.json(Array.isArray(payload) ? errors : errors[0], 429)
      }
      if (answer === 'unavailable') return fail(c, 502, 'Chain unavailable')
      if (answer === 'timeout') {
        const message = `The chain did not answer within ${upstreamTimeoutMs / 1000} s`
        const errors = requests.map((request) => rpcError(request.id, -32603, message))
        return c.json(Array.isArray(payload) ? errors : errors[0])
      }
      return c.body(answer.text, answer.status as 200, { 'Content-Type': 'application/json' })
    })
}
