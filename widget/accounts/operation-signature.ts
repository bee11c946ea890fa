import { hashTypedData } from 'viem'
import { operationTypedData } from '../../sdk/smart-account/operation.ts'
import type { WidgetClient } from '../service-client.ts'

/**
 * The owner's (the embedded wallet's) authorisation of one user operation of its smart account:
 * EIP-712 WalletKitOperation(userOpHash) in the account's own domain (sdk/smart-account/operation.ts),
 * hashed here by viem and signed raw by the wallet service. Never the userOpHash as a message: a
 * site can get any 32 bytes `personal_sign`ed, and the frame refuses typed data in this domain from
 * a site (rpc/eth_signTypedData_v4.ts), so only the frame's own operations are ever authorised.
 */
export async function signOperation(
  client: Pick<WidgetClient, 'wallet'>,
  network: string,
  operation: { chainId: number; account: `0x${string}`; userOpHash: `0x${string}` },
): Promise<`0x${string}`> {
  const hash = hashTypedData(operationTypedData(operation))
  return (await client.wallet.signHash({ network, hash })).signature as `0x${string}`
}
