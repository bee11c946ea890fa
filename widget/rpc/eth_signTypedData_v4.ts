import { validateTypedData, type TypedDataDefinition } from 'viem'
import { smartAccountAddressOf } from '../../sdk/smart-account/operation.ts'
import { isOwnAccountDomain } from '../accounts/own-account-domain.ts'
import { invalid, requireChain } from './guards.ts'
import type { RpcHandler } from './types.ts'

export const eth_signTypedData_v4: RpcHandler<'eth_signTypedData_v4'> = (ctx, [address, { json, typed: data }]) => {
  // The method table checked the shape (types, primaryType, message); viem checks the types themselves.
  const typed = data as unknown as TypedDataDefinition
  try {
    validateTypedData(typed)
  } catch (err) {
    throw invalid(`invalid typed data: ${(err as Error).message.split('\n')[0]}`)
  }
  const account = ctx.signer(address)
  // The user's own smart accounts: the one this owner's key controls on every chain, and the one the site sees.
  const session = ctx.wallet.ui.get().session
  const own = session ? [smartAccountAddressOf(session.address), ...(session.smartAccount ? [session.smartAccount.address] : [])] : []
  if (isOwnAccountDomain(typed, own))
    throw invalid(
      "typed data in the domain of your own smart account (or a WalletKitOperation) is never signed for a site: it could authorise the account's operations",
    )
  const domainChain = (typed.domain as { chainId?: unknown } | undefined)?.chainId
  if (domainChain !== undefined) requireChain(Number(domainChain), account.chain, 'typed data')
  return ctx.confirmations.request({
    kind: 'typed-data',
    payload: { from: account.address, chainId: account.chain.chainId, message: JSON.stringify(data, null, 2) },
    rejected: 'Typed data signing rejected by user',
    failed: 'Failed to sign message',
    onDevice: account.confirmsOnDevice,
    run: () => account.signTypedData(json),
  })
}
