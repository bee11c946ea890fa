import { AtomicityNotSupportedError, UnknownBundleIdError } from '../../bridge/error-classes.ts'
import { bytesToHex, numberToHex, parseEther } from 'viem'
import type { TransactionParams } from '../../bridge/index.ts'
import type { Account } from '../accounts/account.ts'
import { eth_sendTransaction } from './eth_sendTransaction.ts'
import { invalid, refuseSelfCall, requireChain } from './guards.ts'
import { parseTransaction } from './tx.ts'
import type { ChainRpc } from './ports.ts'
import type { RpcHandler } from './types.ts'

/**
 * EIP-5792. The embedded wallet runs calls one after another as ordinary transactions, each
 * confirmed by the user (atomicity "unsupported"); a smart account runs the whole batch as one
 * sponsored user operation after one confirmation that lists every call (atomic).
 */
type Batch = { chainId: number; hashes: `0x${string}`[] } | { chainId: number; operation: string; account: Account }
const batches = new Map<string, Batch>()

export const wallet_getCapabilities: RpcHandler<'wallet_getCapabilities'> = (ctx, [, chainIds]) => {
  const wanted = chainIds?.map(Number) ?? null
  // The connected account's own, else the embedded wallet's (calls one after another).
  // The smart account in use is atomic and sponsored on the chains where it has an account; elsewhere
  // (and for the embedded wallet: calls one after another) atomicity is the connected account's own.
  // A page the user has not connected learns nothing of the account, not even that it is a smart account.
  const { session, connected } = ctx.wallet.ui.get()
  const smart = connected ? session?.smartAccount : undefined
  let account: Account | null = null
  try {
    account = ctx.account()
  } catch {
    // The active chain has no account of the one in use (4901): the answer is per chain anyway.
  }
  type Capability = { atomic: { status: 'supported' | 'unsupported' }; paymasterService?: { supported: true } }
  const capabilities: Record<string, Capability> = {}
  for (const chain of ctx.wallet.chains) {
    if (wanted && !wanted.includes(chain.chainId)) continue
    const sponsored = !!smart?.accounts[String(chain.chainId)]
    capabilities[numberToHex(chain.chainId)] = smart
      ? { atomic: { status: sponsored ? 'supported' : 'unsupported' }, ...(sponsored && { paymasterService: { supported: true as const } }) }
      : { atomic: { status: account?.atomic ?? 'unsupported' } }
  }
  return capabilities
}

export const wallet_sendCalls: RpcHandler<'wallet_sendCalls'> = async (ctx, [request]) => {
  const account = ctx.signer(request.from)
  if (request.chainId != null) requireChain(Number(request.chainId), account.chain, 'calls')
  if (request.calls.length === 0 || request.calls.length > 10) throw invalid('calls must hold 1 to 10 calls')
  if (request.atomicRequired === true && !account.sendCalls)
    throw new AtomicityNotSupportedError({ message: 'The wallet does not support atomic execution but the request requires it.' })
  // A call may name its sender, which must then be the batch's (parseTransaction checks it).
  const calls = request.calls.map((call): TransactionParams => ({ ...call, from: call.from ?? account.address }))
  // Every call is checked before the first is shown (the method table has checked their shapes): a
  // call refused later in the batch must not leave the user confirming the calls before it, for a
  // batch that can never complete.
  for (const [i, call] of calls.entries()) {
    try {
      parseTransaction(call, account)
    } catch (err) {
      throw invalid(`calls[${i}]: ${(err as Error).message}`)
    }
    refuseSelfCall(account, call.to, `calls[${i}]`)
  }
  const id = bytesToHex(crypto.getRandomValues(new Uint8Array(32)))
  if (account.sendCalls) {
    const parsed = calls.map((call) => parseTransaction(call, account).request)
    const operation = (await ctx.confirmations.request({
      kind: 'transaction',
      payload: async () => ({
        from: account.address,
        chainId: account.chain.chainId,
        sponsored: true,
        calls: parsed.map((call) => ({ to: call.to, value: call.value ?? '0', ...(call.data !== undefined && { data: call.data }) })),
      }),
      rejected: 'Transaction rejected by user',
      failed: 'Failed to send calls',
      run: () => account.sendCalls!(parsed.map((call) => ({ to: call.to, value: parseEther(call.value ?? '0').toString(), data: call.data ?? '0x' }))),
    })) as string
    batches.set(id, { chainId: account.chain.chainId, operation, account })
    return { id }
  }
  const hashes: `0x${string}`[] = []
  for (const call of calls) hashes.push((await eth_sendTransaction(ctx, [call])) as `0x${string}`)
  batches.set(id, { chainId: account.chain.chainId, hashes })
  return { id }
}

async function receiptsOf(ctx: ChainRpc, chainId: number, hashes: readonly `0x${string}`[]) {
  const rpc = ctx.rpc(chainId)
  return Promise.all(
    hashes.map((hash) =>
      rpc.request<{ status: string; logs: unknown[]; blockHash: string; blockNumber: string; gasUsed: string; transactionHash: string } | null>({
        method: 'eth_getTransactionReceipt',
        params: [hash],
      }),
    ),
  )
}

/** EIP-5792: the batch's status, shown in the profile modal ('calls-status'); answers once it is shown. */
export const wallet_showCallsStatus: RpcHandler<'wallet_showCallsStatus'> = async (ctx, params) => {
  const status = await wallet_getCallsStatus(ctx, params)
  ctx.wallet.showCallsStatus({
    id: status.id,
    chainId: Number(status.chainId),
    status: status.status,
    atomic: status.atomic,
    ...(status.receipts[0] && { transactionHash: status.receipts.at(-1)!.transactionHash }),
  })
  return null
}

export const wallet_getCallsStatus: RpcHandler<'wallet_getCallsStatus'> = async (ctx, [id]) => {
  const batch = batches.get(id)
  if (!batch) throw new UnknownBundleIdError({ message: 'This bundle id is unknown / has not been submitted.' })
  let status: number
  let atomic = false
  let mined: NonNullable<Awaited<ReturnType<typeof receiptsOf>>[number]>[]
  if ('operation' in batch) {
    // One operation: pending (100), its calls all done (200) or all undone (500), or never included (400).
    atomic = true
    const now = await batch.account.callsStatus!(batch.operation)
    mined = now.txHash ? (await receiptsOf(ctx, batch.chainId, [now.txHash])).filter((r) => r !== null) : []
    status = now.status === 'failed' ? 400 : now.status !== 'included' || !mined.length ? 100 : now.success ? 200 : 500
  } else {
    const receipts = await receiptsOf(ctx, batch.chainId, batch.hashes)
    mined = receipts.filter((r) => r !== null)
    status = mined.length < receipts.length ? 100 : mined.every((r) => r.status === '0x1') ? 200 : mined.some((r) => r.status === '0x1') ? 600 : 500
  }
  return {
    version: '2.0.0',
    id,
    chainId: numberToHex(batch.chainId),
    atomic,
    status,
    receipts: mined.map(({ logs, status, blockHash, blockNumber, gasUsed, transactionHash }) => ({
      logs,
      status,
      blockHash,
      blockNumber,
      gasUsed,
      transactionHash,
    })),
  }
}
