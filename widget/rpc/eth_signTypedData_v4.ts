import { validateTypedData, type TypedDataDefinition } from 'viem'
import { smartAccountAddressOf } from '../../sdk/smart-account/operation.ts'
import { isOwnAccountDomain } from '../accounts/own-account-domain.ts'
import { addressParam, invalid, positional, requireAccount, requireChain } from './guards.ts'
import type { RpcHandler } from './types.ts'

function parseTypedData(value: unknown): { json: string; typed: TypedDataDefinition } {
  let typed: unknown
  let json: string
  try {
    typed = typeof value === 'string' ? JSON.parse(value) : value
    // What is signed is this JSON text: an object JSON cannot write (a BigInt, a cycle) is refused here, not after the modal.
    json = typeof value === 'string' ? value : JSON.stringify(value)
  } catch {
    throw invalid('typed data must be JSON')
  }
  if (typeof typed !== 'object' || typed === null) throw invalid('typed data must be an object')
  const t = typed as Record<string, unknown>
  if (typeof t.primaryType !== 'string' || typeof t.types !== 'object' || typeof t.message !== 'object')
    throw invalid('typed data needs types, primaryType and message')
  try {
    validateTypedData(t as TypedDataDefinition)
  } catch (err) {
    throw invalid(`invalid typed data: ${(err as Error).message.split('\n')[0]}`)
  }
  return { json, typed: t as TypedDataDefinition }
}

export const eth_signTypedData_v4: RpcHandler = (ctx, params) => {
  const [rawAddress, rawData] = positional(params, 2)
  const address = addressParam(rawAddress, 'address')
  const { json, typed } = parseTypedData(rawData)
  const account = requireAccount(ctx, address)
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
    payload: { from: account.address, chainId: account.chain.chainId, message: JSON.stringify(JSON.parse(json), null, 2) },
    rejected: 'Typed data signing rejected by user',
    failed: 'Failed to sign message',
    onDevice: account.confirmsOnDevice,
    run: () => account.signTypedData(json),
  })
}
