import { isAddress, isAddressEqual } from 'viem'
import { accountDomainName, operationPrimaryType } from '../../sdk/smart-account/operation.ts'

/**
 * Whether typed data a site asks to be signed is in the domain of one of the user's own smart
 * accounts, or is the authorisation of an operation: the name WalletKitAccount (any version, chain
 * or contract), a verifyingContract that is one of `accounts` (any chain), or the type
 * WalletKitOperation anywhere. The owner's signature of such data could spend the account
 * (sdk/smart-account/operation.ts): the frame signs it only for the account's own operations, never
 * for a site.
 */
export function isOwnAccountDomain(typed: { domain?: unknown; types?: unknown; primaryType?: unknown }, accounts: readonly `0x${string}`[]): boolean {
  const domain = (typeof typed.domain === 'object' && typed.domain !== null ? typed.domain : {}) as Record<string, unknown>
  if (typeof domain.name === 'string' && domain.name.trim().toLowerCase() === accountDomainName.toLowerCase()) return true
  const contract = domain.verifyingContract
  if (typeof contract === 'string' && isAddress(contract, { strict: false }) && accounts.some((account) => isAddressEqual(account, contract))) return true
  const types = typeof typed.types === 'object' && typed.types !== null ? Object.keys(typed.types) : []
  return typed.primaryType === operationPrimaryType || types.includes(operationPrimaryType)
}
