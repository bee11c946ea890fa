import { getAddress, isAddressEqual, verifyMessage, zeroAddress, type Hash } from 'viem'
import type { Deps } from '../../context.ts'
import { readString, type JsonObject, HttpError } from '../../http/exchange.ts'
import { readAddress, readBytes32, readHexData, readQuantity } from '../wallet/tx-fields.ts'
import { networkOfChain } from './accounts.ts'
import { creditTopUp, tankBalance, type AppRef } from './queries.ts'

/** Native ETH, as top-ups name it. */
const nativeTokens = [zeroAddress, '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'] as const

/** What the sender signs (EIP-191) to claim a transfer for one app's tank: the claim cannot be moved to another app. */
export const topUpMessage = (appId: string, chainId: number, txHash: Hash) =>
  `Top up the gas tank of app ${appId} on chain ${chainId} with transaction ${txHash.toLowerCase()}`

/**
 * Gas-tank top-up (POST /smart-account/topUp): a native transfer to the pool, already on chain, credited to
 * the app once. The transfer is read from the chain, never taken from the request: a made-up
 * txHash, a failed or foreign transfer, or a claim signed by anyone but the sender is refused.
 */
export async function verifyTopUp(deps: Deps, app: AppRef, body: JsonObject) {
  const txHash = readBytes32(body.txHash, 'txHash') as Hash
  const chainId = Number(readQuantity(body.chainId, 'chainId'))
  const network = networkOfChain(deps.networks, chainId)
  const receiver = readString(body.receiverOwnerId, 'receiverOwnerId', 128)
  if (receiver !== app.appId) throw new HttpError(400, 'receiverOwnerId must be the id of the app whose gas tank is topped up')
  const token = readAddress(body.tokenAddress, 'tokenAddress')
  if (!nativeTokens.some((native) => isAddressEqual(native, token))) throw new HttpError(400, 'Only the native coin tops up a gas tank in the sandbox')
  const pool = deps.smartAccounts.pool(chainId)
  if (!isAddressEqual(readAddress(body.poolAddress, 'poolAddress'), pool))
    throw new HttpError(400, `poolAddress must be the gas pool of chain ${chainId}: ${pool}`)
  if (body.immediate !== undefined && typeof body.immediate !== 'boolean') throw new HttpError(400, 'immediate must be true or false')
  const signature = readHexData(body.signature, 'signature')

  const [tx, receipt] = await Promise.all([
    network.client.getTransaction({ hash: txHash }).catch(() => undefined),
    network.client.getTransactionReceipt({ hash: txHash }).catch(() => undefined),
  ])
  if (!tx || !receipt) throw new HttpError(400, `No transaction ${txHash} on chain ${chainId}`)
  if (receipt.status !== 'success') throw new HttpError(400, 'The top-up transaction failed on chain')
  if (!tx.to || !isAddressEqual(tx.to, pool) || tx.value === 0n)
    throw new HttpError(400, 'The transaction is not a transfer of the native coin to the gas pool')
  const signed = await verifyMessage({ address: tx.from, message: topUpMessage(app.appId, chainId, txHash), signature }).catch(() => false)
  if (!signed) throw new HttpError(400, `signature must be the sender's (${getAddress(tx.from)}) signature of: ${topUpMessage(app.appId, chainId, txHash)}`)
  if (!(await creditTopUp(deps.store, app, chainId, txHash, tx.value))) throw new HttpError(409, 'This transaction has already topped up a gas tank')
  return { txHash, chainId, amount: tx.value.toString(), balance: (await tankBalance(deps.store, app, chainId)).toString() }
}
