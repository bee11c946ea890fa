import { InvalidParamsError } from '../../bridge/error-classes.ts'
import { sameAddress } from '../../bridge/rpc-params.ts'
import type { ChainConfig } from '../../sdk/index.ts'
import type { Account } from '../accounts/account.ts'

/**
 * The chain and call rules a handler applies to params the method table has already checked and
 * typed (bridge/rpc-methods.ts): the shapes are not looked at again here. Who signs (the active
 * account, and that a request names no other) is the registry's, asked through `ctx.signer`
 * (index.ts).
 */
export const invalid = (message: string) => new InvalidParamsError({ message })

/** -32602 for a request pinned to another chain than the active one (MetaMask answers the same). */
export function requireChain(requested: number | undefined, active: ChainConfig, what: string): void {
  if (requested !== undefined && requested !== active.chainId)
    throw invalid(`${what} is for chain ${requested}, the wallet is on ${active.name} (${active.chainId}): switch chains first`)
}

/**
 * A smart account never calls itself from a host's request: the account lets itself run its
 * owner-only functions (transfer its ownership, upgrade its code), so one such call would hand the
 * account over after a confirmation that looks like any other.
 */
export function refuseSelfCall(account: Account, to: string | null | undefined, what: string): void {
  if (account.source === 'smart-account' && to != null && sameAddress(to, account.address))
    throw invalid(`${what}: a smart account does not call itself from a site's request (that could hand the account over)`)
}
