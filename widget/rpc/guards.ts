import * as Provider from 'ox/Provider'
import * as RpcResponse from 'ox/RpcResponse'
import { isAddress, isAddressEqual, isHex } from 'viem'
import type { ChainConfig } from '../../sdk/index.ts'
import type { Account } from '../accounts/account.ts'
import type { Params, RpcContext } from './types.ts'

export const invalid = (message: string) => new RpcResponse.InvalidParamsError({ message })

/** The positional params of a method, checked for count. */
export function positional(params: Params, min: number, max = min): readonly unknown[] {
  if (!Array.isArray(params)) throw invalid('params must be an array')
  if (params.length < min || params.length > max) throw invalid(min === max ? `expected ${min} params` : `expected ${min} to ${max} params`)
  return params
}

export function hexParam(value: unknown, name: string): `0x${string}` {
  if (typeof value !== 'string' || !isHex(value)) throw invalid(`${name} must be a hex string`)
  return value
}

/** A hex quantity that must fit a JavaScript number (chain ids, nonces): -32602 rather than an overflow. */
export function numberParam(value: unknown, name: string): number {
  const hex = hexParam(value, name)
  if (!/^0x[0-9a-fA-F]{1,13}$/.test(hex)) throw invalid(`${name} must be a hex number below 2^52`)
  return Number.parseInt(hex.slice(2), 16)
}

export function addressParam(value: unknown, name: string): `0x${string}` {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) throw invalid(`${name} must be an address`)
  return value
}

/**
 * The active account (accounts/active.ts), and when the request names an address, that it is this
 * one (4100 otherwise). Its chain is the active chain (what eth_chainId answers), never the stored
 * one: a host that narrowed its chains may not offer the chain the session was saved on.
 */
export function requireAccount(ctx: RpcContext, address?: string): Account {
  const account = ctx.account()
  if (!account) throw new Provider.UnauthorizedError({ message: 'Not connected: call eth_requestAccounts first' })
  if (address !== undefined && !isAddressEqual(address as `0x${string}`, account.address))
    throw new Provider.UnauthorizedError({ message: `Account ${address} is not authorised` })
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
export function refuseSelfCall(account: Account, to: unknown, what: string): void {
  if (account.source === 'smart-account' && typeof to === 'string' && isAddress(to, { strict: false }) && isAddressEqual(to as `0x${string}`, account.address))
    throw invalid(`${what}: a smart account does not call itself from a site's request (that could hand the account over)`)
}
