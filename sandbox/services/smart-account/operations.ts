import { randomUUID } from 'node:crypto'
import { getAddress, type Hash, type Hex } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import type { Store } from '../../infra/database/store.ts'
import { HttpError } from '../../http/exchange.ts'
import type { Network } from '../chain/networks.ts'
import { accountModel, type AccountCall } from './accounts.ts'
import { BundlerError, storedOp, type Bundler, type UserOp } from './bundler.ts'
import { maxCostOf, maxGasPerOp } from './bundler-policy.ts'
import type { Paymaster } from './paymaster.ts'
import { insertOp, opByHash, tankBalance, type AccountRow } from './queries.ts'

/** A well-formed low-s signature of nobody: accounts refuse it without reverting, so estimation runs their whole validation. */
export const stubSignature: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

export type Built = { op: UserOp; hash: Hash; maxCost: bigint }

/**
 * The user operation that makes `account` run `calls` (none: just deploy it), with gas estimated by
 * the bundler and, when sponsored, the paymaster's signed data, so the hash the owner signs covers
 * who pays. A sponsored operation needs the app's gas tank to hold its maximum cost.
 */
export async function buildOperation(input: {
  network: Network
  bundler: Bundler
  paymaster: Paymaster
  account: Pick<AccountRow, 'owner' | 'address'>
  calls: readonly AccountCall[]
  sponsored: boolean
  tank?: () => Promise<bigint>
}): Promise<Built> {
  const { network, bundler, paymaster, account, calls, sponsored } = input
  const model = await accountModel(network, account.owner)
  const sender = getAddress(account.address)
  const deployed = !!(await network.client.getCode({ address: sender }))
  const [nonce, fees] = await Promise.all([
    network.client.readContract({ address: entryPointAddress, abi: entryPoint07Abi, functionName: 'getNonce', args: [sender, 0n] }),
    network.client.estimateFeesPerGas(),
  ])
  const factory = deployed ? {} : await model.getFactoryArgs()
  let op: UserOp = {
    sender,
    nonce,
    ...factory,
    callData: calls.length ? await model.encodeCalls(calls.map((call) => ({ to: call.to, value: call.value ?? 0n, data: call.data ?? '0x' }))) : '0x',
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    callGasLimit: 0n,
    verificationGasLimit: 0n,
    preVerificationGas: 0n,
    signature: stubSignature,
  } as UserOp
  if (sponsored) op = { ...op, ...paymaster.stubFields() }
  const gas = await estimateOrRefuse(bundler, op)
  op = { ...op, ...gas, ...(sponsored ? {} : { paymasterVerificationGasLimit: undefined, paymasterPostOpGasLimit: undefined }) }
  if (op.callGasLimit + op.verificationGasLimit > maxGasPerOp)
    throw new HttpError(400, 'The operation needs more gas than the sandbox bundles for one operation')
  const maxCost = maxCostOf(op)
  if (sponsored) {
    const tank = (await input.tank?.()) ?? 0n
    if (tank < maxCost)
      throw new HttpError(402, `The app's gas tank on chain ${network.chain.chainId} is too low to sponsor this operation: top it up (smart-account/topUp)`, {
        data: { gasTank: tank.toString(), required: maxCost.toString() },
      })
    op = { ...op, ...(await paymaster.sign(op)) }
  } else {
    const balance = await network.client.getBalance({ address: sender })
    if (balance < maxCost) throw new HttpError(400, `The smart account cannot pay for its gas (needs ${maxCost} wei); ask for a sponsored operation`)
  }
  return { op, hash: bundler.userOpHash(op), maxCost }
}

async function estimateOrRefuse(bundler: Bundler, op: UserOp) {
  try {
    return await bundler.estimate(op)
  } catch (error) {
    if (error instanceof BundlerError) throw new HttpError(400, error.message)
    throw error
  }
}

/** Keeps a built operation until its owner's signature comes with /userOp/submit. */
export async function storeBuilt(
  store: Store,
  built: Built,
  meta: { chainId: number; accountId: string; app: { appId: string; environment: string }; kind: string; sponsored: boolean },
): Promise<string> {
  const id = randomUUID()
  const stored = await insertOp(store, {
    id,
    hash: built.hash.toLowerCase() as Hash,
    chain_id: meta.chainId,
    sender: getAddress(built.op.sender),
    account_id: meta.accountId,
    app_id: meta.app.appId,
    environment: meta.app.environment,
    kind: meta.kind,
    user_op: storedOp(built.op),
    sponsored: meta.sponsored,
    max_cost: built.maxCost.toString(),
    status: 'built',
  })
  if (stored) return id
  // The very same operation (same account, nonce, calls and fees) was built already: its id again, if it is still to be signed.
  const existing = await opByHash(store, built.hash)
  if (existing && existing.status === 'built' && existing.account_id === meta.accountId && existing.app_id === meta.app.appId) return existing.id
  throw new HttpError(409, 'This operation was already built and submitted')
}

export const tankOf = (store: Store, app: { appId: string; environment: string }, chainId: number) => () => tankBalance(store, app, chainId)
