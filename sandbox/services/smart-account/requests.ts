import { erc20Abi, formatUnits, isAddressEqual, isHex, type Address, type Hex, type TypedDataDefinition } from 'viem'
import { type JsonObject, HttpError } from '../../http/exchange.ts'
import type { Network } from '../chain/networks.ts'
import { coinTransfer, erc1155Transfer, erc721Transfer, tokenDecimals, tokenTransfer, type Call } from '../wallet/transfer-calls.ts'
import { readAddress, readHexData, readObject, readQuantity } from '../wallet/tx-fields.ts'
import { accountModel } from './accounts.ts'
import type { AccountRow } from './queries.ts'

// Reading the smart-account service's request bodies: the calls of each kind of operation, messages, typed data.

export const kinds = ['deploy', 'sendERC721', 'sendERC1155', 'sendCoin', 'sendToken', 'signTransaction'] as const
export type Kind = (typeof kinds)[number]

/** The calls each kind of operation makes from the account (signTransaction: one given call, or `calls` for a batch). */
export async function callsOf(kind: Kind, body: JsonObject, row: AccountRow, network: Network): Promise<Call[]> {
  switch (kind) {
    case 'deploy':
      if (await network.client.getCode({ address: row.address })) throw new HttpError(409, 'This smart account is already deployed')
      return []
    case 'sendCoin':
      return [coinTransfer(body)]
    case 'sendToken':
      return [await tokenTransfer(network, body)]
    case 'sendERC721':
      return [erc721Transfer(row.address, body)]
    case 'sendERC1155':
      return [erc1155Transfer(row.address, body)]
    case 'signTransaction': {
      const calls =
        body.calls === undefined
          ? [oneCall(body, '')]
          : Array.isArray(body.calls) && body.calls.length > 0 && body.calls.length <= 20
            ? body.calls.map((raw, i) => oneCall(readObject(raw, `calls[${i}]`), `calls[${i}].`))
            : undefined
      if (!calls) throw new HttpError(400, 'calls must be a list of 1 to 20 calls')
      // The account runs its owner-only functions for itself: a call to itself could hand it over.
      if (calls.some((call) => isAddressEqual(call.to, row.address))) throw new HttpError(400, 'A smart account does not call itself')
      return calls
    }
  }
}

function oneCall(body: JsonObject, prefix: string): Call {
  const data = body.data ?? body.callData
  return {
    to: readAddress(body.to, `${prefix}to`),
    value: body.value === undefined ? 0n : readQuantity(body.value, `${prefix}value`),
    data: data === undefined ? '0x' : readHexData(data, `${prefix}data`),
  }
}

export async function tokenBalance(network: Network, address: Address, token: Address) {
  const decimals = await tokenDecimals(network, token)
  const [balance, symbol] = await Promise.all([
    network.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
    network.client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }).catch(() => undefined),
  ])
  return { tokenAddress: token, balance: formatUnits(balance, decimals), symbol, decimals }
}

export async function factoryOf(network: Network, row: AccountRow): Promise<{ address: Address; data: Hex }> {
  const { factory, factoryData } = await (await accountModel(network, row.owner)).getFactoryArgs()
  return { address: factory!, data: factoryData! }
}

/** A personal_sign message: 0x-hex is bytes, anything else text. */
export function readMessage(value: unknown): { raw: Hex } | string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 100_000) throw new HttpError(400, 'message must be a non-empty string')
  return isHex(value) ? { raw: value } : value
}

export function readTypedData(value: unknown): TypedDataDefinition {
  const data = typeof value === 'string' ? safeParse(value) : value
  if (typeof data !== 'object' || data === null) throw new HttpError(400, 'typedData must be EIP-712 typed data (an object or its JSON)')
  const { domain, types, primaryType, message } = data as Record<string, unknown>
  if (typeof types !== 'object' || types === null || typeof primaryType !== 'string' || typeof message !== 'object' || message === null)
    throw new HttpError(400, 'typedData needs types, primaryType and message')
  const { EIP712Domain: _, ...rest } = types as Record<string, unknown>
  return { domain: (domain ?? {}) as TypedDataDefinition['domain'], types: rest as TypedDataDefinition['types'], primaryType, message } as TypedDataDefinition
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, 'typedData is not valid JSON')
  }
}
