import { operationRequestHash } from '../../sdk/wallet/transaction-hash.ts'
import type { OwnerSigning } from '../profile/smart-account/service.ts'
import type { BatchCall } from './account.ts'
import { needsTransactionStepUp, transactionStepUp } from './embedded.ts'

/**
 * The owner's (the embedded wallet's) authorisation of one user operation of its smart account,
 * which the smart-account service built and stored: the wallet service computes what is signed
 * (EIP-712 WalletKitOperation(userOpHash) in the account's domain, sdk/smart-account/operation.ts)
 * from that stored operation, never from a hash the frame sends. Above the app's step-up threshold
 * (the calls' native value together) it is refused until the user answers a code for these very
 * calls (embedded.ts transactionStepUp), then asked once more with the proof, as an embedded transaction is.
 */
export async function signOperation(
  owner: Pick<OwnerSigning, 'signUserOperation'>,
  operation: { userOpId: string; chainId: number; account: `0x${string}`; calls: readonly BatchCall[] },
): Promise<`0x${string}`> {
  const sign = async (stepUpProof?: string) =>
    (await owner.signUserOperation({ userOpId: operation.userOpId, ...(stepUpProof && { stepUpProof }) })).signature as `0x${string}`
  try {
    return await sign()
  } catch (error) {
    if (!needsTransactionStepUp(error)) throw error
    const calls = operation.calls.map((call) => ({
      to: call.to as `0x${string}`,
      value: BigInt(call.value ?? 0),
      ...(call.data !== undefined && { data: call.data as `0x${string}` }),
    }))
    return sign(await transactionStepUp.ask(operationRequestHash({ chainId: operation.chainId, account: operation.account, calls })))
  }
}
