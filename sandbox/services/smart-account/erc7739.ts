import { serializeErc6492Signature, type Hash, type Hex, type TypedDataDefinition } from 'viem'
import { hashMessage as hash7739Message, hashTypedData as hash7739TypedData, wrapTypedDataSignature } from 'viem/experimental/erc7739'
import { HttpError } from '../../http/exchange.ts'
import type { Network } from '../chain/networks.ts'
import type { AccountRow } from './queries.ts'
import { factoryOf } from './requests.ts'

/** What a smart account is asked to sign: a personal_sign message or EIP-712 typed data. */
export type AccountSignRequest = { kind: 'message'; message: string | { raw: Hex } } | { kind: 'typedData'; typedData: TypedDataDefinition }

type VerifierDomain = { name: string; version: string; chainId: number; verifyingContract: Hex; salt: Hex }

/**
 * The ERC-7739 hash the owner signs for `request` in the account's domain: PersonalSign or
 * TypedDataSign, never a hash the caller chose, and never the digest of an operation (whose type,
 * WalletKitOperation, no wrapped hash can have).
 */
export function accountHashOf(request: AccountSignRequest, verifierDomain: VerifierDomain): Hash {
  if (request.kind === 'message') return hash7739Message({ message: request.message, verifierDomain })
  try {
    return hash7739TypedData({ ...request.typedData, verifierDomain } as Parameters<typeof hash7739TypedData>[0])
  } catch (error) {
    throw new HttpError(400, `typedData is not valid EIP-712 data: ${(error as Error).message.split('\n')[0]}`)
  }
}

/** The account's signature from its owner's signature of accountHashOf: wrapped for typed data, ERC-6492 while the account is not deployed. */
export async function accountSignatureOf(network: Network, row: AccountRow, request: AccountSignRequest, ownerSignature: Hex): Promise<Hex> {
  const inner =
    request.kind === 'typedData'
      ? wrapTypedDataSignature({ ...request.typedData, signature: ownerSignature } as Parameters<typeof wrapTypedDataSignature>[0])
      : ownerSignature
  const deployed = !!(await network.client.getCode({ address: row.address }))
  return deployed ? inner : serializeErc6492Signature({ ...(await factoryOf(network, row)), signature: inner })
}
