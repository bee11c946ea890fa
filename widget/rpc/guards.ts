import { InvalidParamsError, UnauthorizedError } from '../../bridge/error-classes.ts'
import type { Address } from '../../bridge/index.ts'
import type { ChainConfig } from '../../sdk/index.ts'
import type { Account } from '../accounts/account.ts'
import type { AccountPort } from './ports.ts'

/**
 * The account and chain rules a handler applies to params the method table has already checked
 * and typed (bridge/rpc-methods.ts): the shapes are not looked at again here.
 */
export const invalid = (message: string) => new InvalidParamsError({ message })

/** Two addresses the method table has checked (0x and 40 hex digits), in any case. */
export const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/**
 * The active account (accounts/active.ts), and when the request names an address, that it is this
 * one (4100 otherwise). Its chain is the active chain (what eth_chainId answers), never the stored
 * one: a host that narrowed its chains may not offer the chain the session was saved on.
 */
export function requireAccount(ctx: AccountPort, address?: Address | null): Account {
  const account = ctx.account()
  if (!account) throw new UnauthorizedError({ message: 'Not connected: call eth_requestAccounts first' })
  if (address != null && !sameAddress(address, account.address)) throw new UnauthorizedError({ message: `Account ${address} is not authorised` })
  return account
}

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
