import { encodeFunctionData, erc1155Abi, erc20Abi, erc721Abi, type Address, type Hex } from 'viem'
import { HttpError, type JsonObject } from '../../http/exchange.ts'
import type { Network } from '../chain/networks.ts'
import { readAddress, readAmount, readOneOrMany, readQuantity } from './tx-fields.ts'

/** What a transfer call puts on chain, before fees and nonce. */
export type Call = { to: Address; value?: bigint; data?: Hex }

export function coinTransfer(body: JsonObject): Call {
  return { to: readAddress(body.to, 'to'), value: readAmount(body.amount, 'amount', 18) }
}

/** ERC-20 transfer; the amount is in whole tokens, scaled by the token's own decimals. */
export async function tokenTransfer(network: Network, body: JsonObject): Promise<Call> {
  const token = readAddress(body.tokenAddress, 'tokenAddress')
  const to = readAddress(body.to, 'to')
  const decimals = await tokenDecimals(network, token)
  const amount = readAmount(body.amount, 'amount', decimals)
  return { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }) }
}

export function erc721Transfer(from: Address, body: JsonObject): Call {
  const token = readAddress(body.tokenAddress, 'tokenAddress')
  const to = readAddress(body.to, 'to')
  const tokenId = readQuantity(body.tokenId, 'tokenId')
  return { to: token, data: encodeFunctionData({ abi: erc721Abi, functionName: 'safeTransferFrom', args: [from, to, tokenId] }) }
}

/** ERC-1155: one id and amount, or matching lists of them (a batch transfer). Amounts are whole units. */
export function erc1155Transfer(from: Address, body: JsonObject): Call {
  const token = readAddress(body.tokenAddress, 'tokenAddress')
  const to = readAddress(body.to, 'to')
  const ids = readOneOrMany(body.tokenId, 'tokenId', readQuantity)
  const amounts = readOneOrMany(body.amount, 'amount', readQuantity)
  if (Array.isArray(body.tokenId) !== Array.isArray(body.amount) || ids.length !== amounts.length)
    throw new HttpError(400, 'tokenId and amount must both be single values or lists of the same length')
  const data = Array.isArray(body.tokenId)
    ? encodeFunctionData({ abi: erc1155Abi, functionName: 'safeBatchTransferFrom', args: [from, to, ids, amounts, '0x'] })
    : encodeFunctionData({ abi: erc1155Abi, functionName: 'safeTransferFrom', args: [from, to, ids[0]!, amounts[0]!, '0x'] })
  return { to: token, data }
}

export async function tokenDecimals(network: Network, token: Address): Promise<number> {
  try {
    return await network.client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' })
  } catch {
    throw new HttpError(400, `tokenAddress ${token} is not an ERC-20 token on ${network.chain.network}`)
  }
}
