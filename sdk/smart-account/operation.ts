/**
 * What the owner of a WalletKitAccount (sandbox/contracts/WalletKitAccount.sol) signs to authorise
 * one user operation: EIP-712 typed data in the account's own domain, never the bare userOpHash.
 * Sign it with any EIP-712 signer (viem's `signTypedData`, or `hashTypedData` then a raw hash
 * signature) and pass the signature to `userOp.submit`.
 *
 * Why typed data in this domain: the account's old rule (Solady's default, the owner's EIP-191
 * `personal_sign` of the userOpHash) let any site that got the user to sign 32 opaque bytes spend
 * the account. A `personal_sign` digest never equals an EIP-712 one, and the wallet refuses typed
 * data in this domain from a site (widget/rpc/eth_signTypedData_v4.ts, `isOwnAccountDomain`).
 */
import { getAddress, keccak256 } from 'viem'

/** The account's EIP-712 domain name and version (its `eip712Domain()`); ERC-7739 signatures use the same domain. */
export const accountDomainName = 'WalletKitAccount'
export const accountDomainVersion = '1'
/** The primary type of an operation's authorisation: `WalletKitOperation(bytes32 userOpHash)`. */
export const operationPrimaryType = 'WalletKitOperation'

/** The typed data the owner signs for the operation `userOpHash` of `account` on `chainId`. */
export function operationTypedData(input: { chainId: number; account: `0x${string}`; userOpHash: `0x${string}` }) {
  return {
    domain: { name: accountDomainName, version: accountDomainVersion, chainId: input.chainId, verifyingContract: input.account },
    types: { [operationPrimaryType]: [{ name: 'userOpHash', type: 'bytes32' }] },
    primaryType: operationPrimaryType,
    message: { userOpHash: input.userOpHash },
  } as const
}

/**
 * The local chains' WalletKitAccountFactory and the init-code hash of the account proxies it makes
 * (its `initCodeHash()`): with the owner's salt (the owner's 20 bytes, then 12 zero bytes) they give
 * the address of an owner's account on any chain, without asking one. Checked against the deployed
 * factory by sandbox/contracts/account-abstraction.test.ts: recompiling the account changes both.
 */
export const accountFactory = {
  address: '0x56CC0Ecf331Ed3f4b89088305C18416Fe352F7E7',
  proxyInitCodeHash: '0x5b2ff9cb8bffd88768390927239eece6d58711b0229bbcec088007aa755036a5',
} as const

/**
 * The address of `owner`'s account (the factory, the owner's salt): the same on every chain that has
 * the factory, computed without one. CREATE2 written out (keccak256 of 0xff, factory, salt, init-code
 * hash) rather than viem's getContractAddress, whose CREATE branch (RLP) would weigh on the frame's first route.
 */
export function smartAccountAddressOf(owner: `0x${string}`): `0x${string}` {
  const salt = `${owner.toLowerCase().slice(2)}${'00'.repeat(12)}`
  const hash = keccak256(`0xff${accountFactory.address.slice(2)}${salt}${accountFactory.proxyInitCodeHash.slice(2)}`)
  return getAddress(`0x${hash.slice(-40)}`)
}
