import { getAddress, isAddressEqual, parseAbi, type Address, type PublicClient } from 'viem'
import {
  accountAddressOf,
  accountFactoryAddress,
  accountImplementationAddress,
  simpleAccountFactoryAddress,
  simpleAccountImplementationAddress,
} from '../../contracts/account-abstraction.ts'
import { BundlerError, invalidUserOp } from './bundler-errors.ts'

/**
 * The two kinds of account this bundler takes, both with validation code it knows (only the account's
 * own storage and an ecrecover, nothing that can pass a simulation and then fail in the bundle):
 * - `walletKit`: WalletKitAccount, of this sandbox's factory (its proxies of our implementation);
 * - `simple`: eth-infinitism's SimpleAccount v0.7, of the canonical SimpleAccountFactory, for stock
 *   clients. Its owner's EIP-191 signature of the userOpHash (one personal_sign of 32 bytes) is
 *   enough to spend it, so it pays for itself: no paymaster of ours ever sponsors it.
 */
export type AccountKind = 'walletKit' | 'simple'

/** Which kind of account sends an operation; a BundlerError for any other. One per chain, shared by its bundler and paymaster. */
export type AccountKinds = { of(op: { sender: Address; factory?: Address | undefined }): Promise<AccountKind> }

const factories: readonly [Address, AccountKind][] = [
  [accountFactoryAddress, 'walletKit'],
  [simpleAccountFactoryAddress, 'simple'],
]
const implementations: readonly [Address, AccountKind][] = [
  [accountImplementationAddress, 'walletKit'],
  [simpleAccountImplementationAddress, 'simple'],
]

/** ERC-1967's implementation slot, where our factory's proxies keep the account implementation. */
const implementationSlot = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'

/**
 * The kinds of account on one chain (`client`'s). A deployed account is judged by the
 * implementation in its ERC-1967 slot and by sitting where its factory puts its owner's account:
 * the slot and the owner are read together, then, for a SimpleAccount, its factory is asked. It is
 * judged from the chain as it is now, every time: nothing is remembered, so an upgrade or a new
 * owner (the account may hand itself to another key) is judged exactly as a process that never saw
 * the account would judge it.
 */
export function createAccountKinds(client: PublicClient): AccountKinds {
  return {
    async of(op) {
      if (op.factory) return kindOfFactory(op.factory)
      const sender = op.sender
      const [slot, owner] = await Promise.all([client.getStorageAt({ address: sender, slot: implementationSlot }), ownerOf(client, sender)])
      const implementation = slot && slot !== '0x' ? getAddress(`0x${slot.slice(-40)}`) : undefined
      const kind = implementation && implementations.find(([address]) => isAddressEqual(address, implementation))?.[1]
      if (!kind || !owner || !(await madeByFactory(client, sender, kind, owner)))
        throw new BundlerError(invalidUserOp, 'This bundler takes operations of accounts made by its own factory (or the canonical SimpleAccountFactory) only')
      return kind
    },
  }
}

/** An account not deployed yet: the kind its factory makes. */
function kindOfFactory(factory: Address): AccountKind {
  const kind = factories.find(([address]) => isAddressEqual(address, factory))?.[1]
  if (!kind) throw new BundlerError(invalidUserOp, `This bundler deploys only accounts of the factories ${factories.map(([address]) => address).join(' and ')}`)
  return kind
}

const ownerAbi = parseAbi(['function owner() view returns (address)'])
const simpleFactoryAbi = parseAbi(['function getAddress(address owner, uint256 salt) view returns (address)'])

/**
 * Whether `sender` is where its factory puts its owner's account: any contract can write an
 * implementation into its own ERC-1967 slot (and so look like one of ours), but only the factory
 * creates code at these CREATE2 addresses. A WalletKitAccount sits at its owner's salt (the owner,
 * then zeros); a SimpleAccount at salt 0, the index stock clients use by default.
 */
const ownerOf = (client: PublicClient, account: Address): Promise<Address | undefined> =>
  client.readContract({ address: account, abi: ownerAbi, functionName: 'owner' }).catch(() => undefined)

async function madeByFactory(client: PublicClient, sender: Address, kind: AccountKind, owner: Address): Promise<boolean> {
  const expected =
    kind === 'walletKit'
      ? accountAddressOf(owner)
      : await client.readContract({ address: simpleAccountFactoryAddress, abi: simpleFactoryAbi, functionName: 'getAddress', args: [owner, 0n] })
  return isAddressEqual(expected, sender)
}
