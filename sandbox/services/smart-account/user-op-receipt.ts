import { encodeEventTopics, isAddressEqual, numberToHex, type Hash, type Hex, type TransactionReceipt } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import type { OpRow } from './queries.ts'

const beforeExecutionTopic = encodeEventTopics({ abi: entryPoint07Abi, eventName: 'BeforeExecution' })[0]
const userOperationEventTopic = encodeEventTopics({ abi: entryPoint07Abi, eventName: 'UserOperationEvent' })[0]

type AnyLog = { address: string; topics: readonly (Hex | null)[] }

/**
 * The logs of one operation in its bundle transaction. `handleOps` validates every operation first
 * (account deployments and deposits are logged then, before BeforeExecution), then runs them one
 * after another, each closed by its UserOperationEvent. So an operation's logs are those after the
 * last boundary before its own UserOperationEvent (BeforeExecution, or the previous operation's
 * UserOperationEvent) and before it: its execution, postOp, and any revert reason the EntryPoint logs
 * for it. Only the EntryPoint's own events count as boundaries: a contract the operations call can
 * log the same topics. None when the transaction holds no UserOperationEvent of this hash.
 */
export function opLogs<L extends AnyLog>(logs: readonly L[], userOpHash: Hash): L[] {
  let start = 0
  for (const [index, log] of logs.entries()) {
    if (!isAddressEqual(log.address as Hex, entryPointAddress)) continue
    const topic = log.topics[0]
    if (topic === beforeExecutionTopic) start = index + 1
    else if (topic === userOperationEventTopic) {
      if (log.topics[1]?.toLowerCase() === userOpHash.toLowerCase()) return logs.slice(start, index)
      start = index + 1
    }
  }
  return []
}

/** eth_getUserOperationReceipt's answer for an included operation: its own logs, and the whole bundle's transaction receipt. */
export function userOpReceipt(row: OpRow & { receipt: NonNullable<OpRow['receipt']> }, receipt: TransactionReceipt) {
  const r = row.receipt
  return {
    userOpHash: row.hash,
    entryPoint: entryPointAddress,
    sender: row.sender,
    nonce: numberToHex(BigInt(r.nonce)),
    paymaster: r.paymaster,
    actualGasCost: numberToHex(BigInt(r.actualGasCost)),
    actualGasUsed: numberToHex(BigInt(r.actualGasUsed)),
    success: r.success,
    reason: r.reason,
    logs: opLogs(receipt.logs, row.hash).map(rpcLog),
    receipt: {
      transactionHash: receipt.transactionHash,
      transactionIndex: numberToHex(receipt.transactionIndex),
      blockHash: receipt.blockHash,
      blockNumber: numberToHex(receipt.blockNumber),
      from: receipt.from,
      to: receipt.to,
      cumulativeGasUsed: numberToHex(receipt.cumulativeGasUsed),
      gasUsed: numberToHex(receipt.gasUsed),
      effectiveGasPrice: numberToHex(receipt.effectiveGasPrice),
      contractAddress: receipt.contractAddress ?? null,
      logs: receipt.logs.map(rpcLog),
      logsBloom: receipt.logsBloom,
      status: receipt.status === 'success' ? '0x1' : '0x0',
      type: '0x2',
    },
  }
}

const rpcLog = (log: TransactionReceipt['logs'][number]) => ({
  address: log.address,
  topics: log.topics,
  data: log.data,
  blockNumber: numberToHex(log.blockNumber),
  blockHash: log.blockHash,
  transactionHash: log.transactionHash,
  transactionIndex: numberToHex(log.transactionIndex),
  logIndex: numberToHex(log.logIndex),
  removed: false,
})
