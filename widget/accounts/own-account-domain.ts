import { isAddress, isAddressEqual } from 'viem'
import { accountDomainName, operationPrimaryType } from '../../sdk/smart-account/operation.ts'

/**
 * Whether typed data a site asks to be signed is in the domain of one of the user's own smart
 * accounts, or is the authorisation of an operation: the name WalletKitAccount (any version, chain
 * or contract; also given as its bytes, which viem hashes alike), a verifyingContract that is one of
 * `accounts` (any chain), or the type WalletKitOperation anywhere. Also ERC-7739's TypedDataSign
 * naming the account in its message (name or verifyingContract): signed by the owner, that is the
 * account's own ERC-1271 signature of the site's typed data (a Permit2 transfer of its tokens). The
 * owner's signature of such data could spend the account (sdk/smart-account/operation.ts): the frame
 * signs it only for the account's own operations, never for a site.
 */
export function isOwnAccountDomain(
  typed: { domain?: unknown; types?: unknown; primaryType?: unknown; message?: unknown },
  accounts: readonly `0x${string}`[],
): boolean {
  const fields = (value: unknown) => (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>
  const names = (name: unknown) => name !== undefined && (typeof name !== 'string' || name.trim().toLowerCase() === accountDomainName.toLowerCase())
  const mine = (contract: unknown) =>
    isAddress(String(contract), { strict: false }) && accounts.some((account) => isAddressEqual(account, String(contract) as `0x${string}`))
  const claims = (domain: Record<string, unknown>) => names(domain.name) || mine(domain.verifyingContract)
  const types = Object.keys(fields(typed.types))
  return (
    claims(fields(typed.domain)) ||
    typed.primaryType === operationPrimaryType ||
    types.includes(operationPrimaryType) ||
    (types.includes('TypedDataSign') && claims(fields(typed.message)))
  )
}
