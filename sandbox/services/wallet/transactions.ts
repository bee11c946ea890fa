import {
  BaseError,
  HttpRequestError,
  RpcRequestError,
  TimeoutError,
  WaitForTransactionReceiptTimeoutError,
  type Hash,
  type TransactionReceipt,
  type TransactionSerializable,
} from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { HttpError } from '../../http/exchange.ts'
import type { Network } from '../chain/networks.ts'
import type { TxRequest } from './tx-fields.ts'

/** The `txReceipt` of the sending calls (send-transaction, send-coin, send-token, transfers, cancel): the mined transaction, numbers as JSON-safe values. */
export type TxReceiptBody = {
  hash: Hash
  from: string
  to: string | null
  nonce: number
  chainId: number
  status: 'success' | 'reverted'
  blockNumber: number
  blockHash: Hash
  transactionIndex: number
  gasUsed: string
  effectiveGasPrice: string
  contractAddress: string | null
}

/** Fills nonce, gas and fees from the chain where the caller left them out. */
export async function prepareTx(network: Network, account: PrivateKeyAccount, request: TxRequest): Promise<TransactionSerializable> {
  const { client, viemChain } = network
  try {
    const prepared = await client.prepareTransactionRequest({
      account,
      chain: viemChain,
      ...request,
      parameters: ['nonce', 'gas', 'fees', 'chainId', 'type'],
    } as Parameters<typeof client.prepareTransactionRequest>[0])
    return prepared as unknown as TransactionSerializable
  } catch (error) {
    throw chainError(error)
  }
}

export async function signTx(network: Network, account: PrivateKeyAccount, request: TxRequest) {
  return account.signTransaction(await prepareTx(network, account, request))
}

/** Signs, broadcasts and waits until the transaction is mined; answers its receipt. */
export async function sendTx(network: Network, account: PrivateKeyAccount, request: TxRequest): Promise<TxReceiptBody> {
  const { client } = network
  const sent = await network.oneAtATime(account.address, async () => {
    const prepared = await prepareTx(network, account, request)
    const serializedTransaction = await account.signTransaction(prepared)
    try {
      return { hash: await client.sendRawTransaction({ serializedTransaction }), nonce: prepared.nonce ?? 0 }
    } catch (error) {
      throw chainError(error)
    }
  })
  return { ...(await waitMined(network, sent.hash)), nonce: sent.nonce }
}

export async function waitMined(network: Network, hash: Hash): Promise<TxReceiptBody> {
  let receipt: TransactionReceipt
  try {
    receipt = await network.client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 60_000 })
  } catch (error) {
    if (error instanceof WaitForTransactionReceiptTimeoutError) throw new HttpError(504, `Transaction ${hash} was not mined within 60 s`)
    throw chainError(error)
  }
  const tx = await network.client.getTransaction({ hash })
  return receiptBody(receipt, network.chain.chainId, tx.nonce)
}

export function receiptBody(receipt: TransactionReceipt, chainId: number, nonce: number): TxReceiptBody {
  return {
    hash: receipt.transactionHash,
    from: receipt.from,
    to: receipt.to,
    nonce,
    chainId,
    status: receipt.status,
    blockNumber: Number(receipt.blockNumber),
    blockHash: receipt.blockHash,
    transactionIndex: receipt.transactionIndex,
    gasUsed: receipt.gasUsed.toString(),
    effectiveGasPrice: receipt.effectiveGasPrice.toString(),
    contractAddress: receipt.contractAddress ?? null,
  }
}

/**
 * A chain failure as an answer: the node unreachable is a 502; anything the node refused (revert,
 * insufficient funds, nonce too low, underpriced) is the caller's 400 with the most specific
 * one-line reason in the cause chain.
 */
export function chainError(error: unknown): unknown {
  if (error instanceof HttpError || !(error instanceof BaseError)) return error
  if (error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError) && !hasRpcAnswer(error))
    return new HttpError(502, 'Chain unavailable')
  // The chain's RPC URL answers a 5xx with a JSON-RPC error while its node is down or restarting
  // (infra/anvil/anvil-guard.ts): the chain is unavailable, the request was not refused.
  if (error.walk((cause) => cause instanceof RpcRequestError && (cause.status ?? 0) >= 500)) return new HttpError(502, 'Chain unavailable')
  return new HttpError(400, firstLine(reason(error)))
}

function reason(error: BaseError): string {
  // viem's node errors (InsufficientFundsError, NonceTooLowError, ...) and reverts say it best.
  const known = error.walk(
    (cause) => cause instanceof BaseError && ('nodeMessage' in cause.constructor || /revert/i.test(cause.shortMessage)),
  ) as BaseError | null
  if (known) return known.shortMessage
  // Otherwise the node's own words, which viem keeps as `details` of the RPC error.
  const rpc = error.walk(
    (cause) => cause instanceof BaseError && typeof (cause as { code?: unknown }).code === 'number' && Boolean(cause.details),
  ) as BaseError | null
  if (rpc) return rpc.details.charAt(0).toUpperCase() + rpc.details.slice(1)
  return error.shortMessage
}

const firstLine = (text: string) => text.split('\n')[0]?.trim() || 'Transaction failed'

// An HttpRequestError also wraps RPC errors with a body; only the ones without an answer mean "down".
function hasRpcAnswer(error: BaseError): boolean {
  return Boolean(error.walk((cause) => typeof (cause as { code?: unknown }).code === 'number'))
}
