import { Hono, type Context } from 'hono'
import { isAddress, isHex, numberToHex, size, type Hash } from 'viem'
import { formatUserOperation, formatUserOperationRequest, type RpcUserOperation } from 'viem/account-abstraction'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { parseEnvironment } from '../app-config/apps.ts'
import { findApp } from '../app-config/queries.ts'
import type { Network } from '../chain/networks.ts'
import { secretMatches } from '../auth/app-guard.ts'
import { loadOp, storedOp, type UserOp } from './bundler.ts'
import { BundlerError, bundlerErrorCodes as codes, rpcErrorObject } from './bundler-errors.ts'
import { maxCostOf, maxGasPerOp } from './bundler-policy.ts'
import { claimSponsorship, opByHash, releaseSponsorship, tankBalance } from './queries.ts'
import { appOfRow } from './settlement.ts'
import { sponsorForApp } from './sponsorship.ts'
import { userOpReceipt } from './user-op-receipt.ts'

type RpcRequest = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown }

/**
 * The standard ERC-4337 bundler JSON-RPC and the ERC-7677 paymaster methods, one URL per chain
 * (/api/v1/bundler/<chainId>), so viem's bundler and paymaster clients work against the sandbox
 * unmodified. Sending needs nothing (anyone may pay for their own operation); sponsorship is an
 * app's back end asking with its id, environment and client secret in headers, paid from that
 * app's gas tank.
 */
export function bundlerRpcRoutes(deps: Deps) {
  return new Hono<SandboxEnv>().post('/bundler/:chainId', async (c) => {
    const chainId = Number(c.req.param('chainId'))
    const network = deps.networks.list.find((n) => n.chain.chainId === chainId)
    if (!network) throw new HttpError(404, 'No bundler for this chain in the sandbox')
    let body: unknown
    try {
      body = JSON.parse(await c.req.text())
    } catch {
      return c.json({ jsonrpc: '2.0', id: null, error: { code: codes.parseError, message: 'Parse error' } })
    }
    const one = (request: unknown) => answer(c, deps, network, request as RpcRequest)
    if (Array.isArray(body)) {
      if (body.length > 20) return c.json({ jsonrpc: '2.0', id: null, error: { code: codes.invalidRequest, message: 'At most 20 calls in a batch' } })
      return c.json(await Promise.all(body.map(one)))
    }
    return c.json(await one(body))
  })
}

async function answer(c: Context<SandboxEnv>, deps: Deps, network: Network, request: RpcRequest) {
  const chainId = network.chain.chainId
  const id = typeof request?.id === 'number' || typeof request?.id === 'string' ? request.id : null
  try {
    if (typeof request !== 'object' || request === null || typeof request.method !== 'string') throw new BundlerError(codes.invalidRequest, 'Invalid request')
    const params = Array.isArray(request.params) ? request.params : []
    return { jsonrpc: '2.0', id, result: await call(c, deps, network, request.method, params) }
  } catch (error) {
    if (error instanceof BundlerError) return { jsonrpc: '2.0', id, error: rpcErrorObject(error, deps.smartAccounts.paymaster(chainId).address) }
    return { jsonrpc: '2.0', id, error: { code: codes.internal, message: (error as Error).message?.split('\n')[0] ?? 'Internal error' } }
  }
}

/** One call on the chain the URL names (`network`, looked up once per request by bundlerRpcRoutes). */
async function call(c: Context<SandboxEnv>, deps: Deps, network: Network, method: string, params: unknown[]): Promise<unknown> {
  const chainId = network.chain.chainId
  const bundler = deps.smartAccounts.bundler(chainId)
  const entryPoint = () => {
    if (typeof params[1] !== 'string' || params[1].toLowerCase() !== entryPointAddress.toLowerCase())
      throw new BundlerError(codes.invalidFields, `Unsupported entry point: this bundler serves ${entryPointAddress}`)
  }
  switch (method) {
    case 'eth_chainId':
      return numberToHex(chainId)
    case 'eth_supportedEntryPoints':
      return [entryPointAddress]
    case 'eth_estimateUserOperationGas': {
      entryPoint()
      const gas = await bundler.estimate(readOp(params[0], true))
      return {
        preVerificationGas: numberToHex(gas.preVerificationGas),
        verificationGasLimit: numberToHex(gas.verificationGasLimit),
        callGasLimit: numberToHex(gas.callGasLimit),
        paymasterVerificationGasLimit: numberToHex(gas.paymasterVerificationGasLimit),
        paymasterPostOpGasLimit: numberToHex(gas.paymasterPostOpGasLimit),
      }
    }
    case 'eth_sendUserOperation': {
      entryPoint()
      const op = readOp(params[0])
      const paymaster = deps.smartAccounts.paymaster(chainId)
      const sponsored = !!op.paymaster && op.paymaster.toLowerCase() === paymaster.address.toLowerCase()
      if (!sponsored) return await bundler.send(op, { kind: 'rpc', sponsored })
      // A sponsorship is the one pm_getPaymasterData signed and stored (its cost already set aside), sent once.
      const row = await opByHash(deps.store, bundler.userOpHash(op))
      if (!row || row.chain_id !== chainId || !row.sponsored || !appOfRow(row))
        throw new BundlerError(codes.rejectedByPaymaster, 'Unknown sponsorship: ask pm_getPaymasterData for this operation')
      if (row.status !== 'paymaster_signed' || !(await claimSponsorship(deps.store, row.id, storedOp(op))))
        throw new BundlerError(codes.invalidFields, 'This operation was already sent')
      try {
        return await bundler.send(op, { id: row.id, kind: 'rpc', sponsored: true, app: appOfRow(row)!, stored: true })
      } catch (error) {
        await releaseSponsorship(deps.store, row.id)
        throw error
      }
    }
    case 'eth_getUserOperationReceipt': {
      const row = await opByHash(deps.store, readHash(params[0]))
      if (!row || row.chain_id !== chainId || row.status !== 'included' || !row.receipt) return null
      const receipt = await network.client.getTransactionReceipt({ hash: row.receipt.transactionHash })
      return userOpReceipt({ ...row, receipt: row.receipt }, receipt)
    }
    case 'eth_getUserOperationByHash': {
      const row = await opByHash(deps.store, readHash(params[0]))
      // Only what was sent to this bundler: not an operation the service built and holds, nor a
      // sponsorship signed for an app and never sent here (whose owner signature is not ours to know).
      if (!row || row.chain_id !== chainId || row.status === 'built' || row.status === 'paymaster_signed' || row.kind === 'paymaster') return null
      const included = row.status === 'included' && row.receipt
      return {
        userOperation: formatUserOperationRequest(loadOp(row)),
        entryPoint: entryPointAddress,
        transactionHash: included ? row.receipt!.transactionHash : null,
        blockHash: included ? row.receipt!.blockHash : null,
        blockNumber: included ? numberToHex(BigInt(row.receipt!.blockNumber)) : null,
      }
    }
    case 'pm_getPaymasterStubData':
    case 'pm_getPaymasterData': {
      entryPoint()
      if (typeof params[2] !== 'string' || Number(params[2]) !== chainId)
        throw new BundlerError(codes.invalidFields, `chainId must be ${numberToHex(chainId)} on this URL`)
      const app = await sponsoringApp(c, deps)
      const paymaster = deps.smartAccounts.paymaster(chainId)
      const op = readOp(params[0], true)
      const tank = await tankBalance(deps.store, app, chainId)
      if (method === 'pm_getPaymasterStubData') {
        if (tank === 0n)
          throw new BundlerError(codes.rejectedByPaymaster, `The gas tank of app ${app.appId} on chain ${chainId} is empty: top it up to sponsor operations`)
        return rpcFields({ ...paymaster.stubFields(), isFinal: false })
      }
      const sponsoredOp = { ...op, ...paymaster.stubFields() } as UserOp
      // The paymaster's signature covers the fees and gas: bounded here, so one signature cannot promise the tank away.
      const { maxFeePerGas } = await network.client.estimateFeesPerGas()
      if (sponsoredOp.maxFeePerGas > 2n * maxFeePerGas || sponsoredOp.maxPriorityFeePerGas > 2n * maxFeePerGas)
        throw new BundlerError(codes.invalidFields, `The fees are above what this paymaster sponsors (at most ${2n * maxFeePerGas} per gas)`)
      if (sponsoredOp.callGasLimit + sponsoredOp.verificationGasLimit + (sponsoredOp.paymasterVerificationGasLimit ?? 0n) > maxGasPerOp)
        throw new BundlerError(codes.invalidFields, `The gas limits are above what this paymaster sponsors (${maxGasPerOp})`)
      if (tank < maxCostOf(sponsoredOp))
        throw new BundlerError(
          codes.rejectedByPaymaster,
          `The gas tank of app ${app.appId} on chain ${chainId} is too low to sponsor this operation: top it up`,
        )
      return rpcFields(await sponsorForApp(deps, chainId, app, sponsoredOp))
    }
    // What a stock smart-account client asks its bundler URL for its fees (permissionless's
    // createSmartAccountClient given only a bundler transport): cheap reads of the chain, nothing
    // that simulates (simulations go through /rpc, with its gas caps and turns).
    case 'eth_blockNumber':
    case 'eth_gasPrice':
    case 'eth_maxPriorityFeePerGas':
      return network.client.request({ method } as { method: 'eth_gasPrice' })
    case 'eth_getBlockByNumber': {
      const [block, full] = params
      if (typeof block !== 'string' || !/^(latest|pending|safe|finalized|earliest|0x[0-9a-f]{1,16})$/.test(block) || (full !== undefined && full !== false))
        throw new BundlerError(codes.invalidFields, 'eth_getBlockByNumber takes a block tag or number and false (no full transactions)')
      return network.client.request({ method, params: [block as 'latest', false] })
    }
    default:
      throw new BundlerError(codes.methodNotFound, `Method not supported: ${method}`)
  }
}

async function sponsoringApp(c: Context<SandboxEnv>, deps: Deps) {
  const appId = c.req.header('x-app-id')
  const environment = parseEnvironment(c.req.header('x-environment') ?? 'production')
  const secret = c.req.header('x-client-secret')
  const app = appId && environment ? await findApp(deps.store, appId, environment) : undefined
  if (!app || secret === undefined || !secretMatches(secret, app.clientSecret))
    throw new BundlerError(codes.appUnauthorized, 'Sponsorship needs the app: send x-app-id, x-environment and x-client-secret headers')
  if (!app.settings.isAAEnabled) throw new BundlerError(codes.appUnauthorized, 'Smart accounts are not enabled for this app')
  return { appId: app.appId, environment: app.environment }
}

function readOp(value: unknown, partial = false): UserOp {
  if (typeof value !== 'object' || value === null) throw new BundlerError(codes.invalidFields, 'The user operation must be an object')
  const op = value as Record<string, unknown>
  const required = partial
    ? ['sender', 'nonce', 'callData']
    : ['sender', 'nonce', 'callData', 'callGasLimit', 'verificationGasLimit', 'preVerificationGas', 'maxFeePerGas', 'maxPriorityFeePerGas', 'signature']
  for (const key of required) if (typeof op[key] !== 'string' || !isHex(op[key])) throw new BundlerError(codes.invalidFields, `userOp.${key} must be hex`)
  if (!isAddress(op.sender as string)) throw new BundlerError(codes.invalidFields, 'userOp.sender must be an address')
  for (const [key, field] of Object.entries(op))
    if (field !== null && field !== undefined && (typeof field !== 'string' || !isHex(field)))
      throw new BundlerError(codes.invalidFields, `userOp.${key} must be hex`)
  const defaults = {
    callGasLimit: '0x0',
    verificationGasLimit: '0x0',
    preVerificationGas: '0x0',
    maxFeePerGas: '0x0',
    maxPriorityFeePerGas: '0x0',
    signature: '0x',
  }
  try {
    return formatUserOperation({ ...defaults, ...op } as RpcUserOperation) as UserOp
  } catch (error) {
    throw new BundlerError(codes.invalidFields, `Malformed user operation: ${(error as Error).message.split('\n')[0]}`)
  }
}

function readHash(value: unknown): Hash {
  if (!isHex(value, { even: true }) || size(value) !== 32) throw new BundlerError(codes.invalidFields, 'A user operation hash (32 bytes hex) is required')
  return value
}

const rpcFields = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, typeof value === 'bigint' ? numberToHex(value) : value]))
