import { pad, type Address, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { accountAddressOf, accountImplementationAddress, simpleAccountImplementationAddress } from '../../contracts/account-abstraction.ts'
import { createAccountKinds } from './account-kinds.ts'
import { checkSponsorable } from './bundler-policy.ts'
import type { UserOp } from './bundler-types.ts'

// Which kind of account sends an operation, remembered per chain: without a chain, a client that
// answers from a table and counts every read it is asked for.

/** One chain holding our account `sender` of `owner` (and `others`, also ours), counting each read. */
function chainStub(sender: Address, owner: Address, others: readonly Address[] = []) {
  const state = { slot: pad(accountImplementationAddress.toLowerCase() as Hex), simpleAccountAt: undefined as Address | undefined }
  const reads: string[] = []
  const ownerOf = new Map(others.map((other) => [accountAddressOf(other), other]))
  const client = {
    async getStorageAt({ address }: { address: Address }) {
      reads.push('slot')
      return address === sender || ownerOf.has(address) ? state.slot : undefined
    },
    async readContract({ address, functionName }: { address: Address; functionName: string }) {
      reads.push(functionName)
      if (functionName === 'owner') return ownerOf.get(address) ?? owner
      if (functionName === 'getAddress') return state.simpleAccountAt ?? privateKeyToAccount(generatePrivateKey()).address
      throw new Error(`unexpected ${functionName}`)
    },
  } as unknown as PublicClient
  return { client, state, reads }
}

const deployedOp = (sender: Address) => ({ sender }) as UserOp

describe('account kinds', () => {
  const owner = privateKeyToAccount(generatePrivateKey()).address
  const sender = accountAddressOf(owner)

  test('an account is judged by its slot and its owner, read together, every time (the paymaster and the bundler alike)', async () => {
    const { client, reads } = chainStub(sender, owner)
    const kinds = createAccountKinds(client)
    expect(await kinds.of(deployedOp(sender))).toBe('walletKit')
    expect(reads).toEqual(['slot', 'owner'])
    reads.length = 0
    await checkSponsorable(kinds, deployedOp(sender))
    expect(reads).toEqual(['slot', 'owner'])
  })

  test('an upgrade (another value in the slot) is judged afresh', async () => {
    const { client, state, reads } = chainStub(sender, owner)
    const kinds = createAccountKinds(client)
    expect(await kinds.of(deployedOp(sender))).toBe('walletKit')
    state.slot = pad(simpleAccountImplementationAddress.toLowerCase() as Hex)
    reads.length = 0
    // Now a SimpleAccount's implementation, at an address the SimpleAccountFactory does not give its owner: refused.
    await expect(kinds.of(deployedOp(sender))).rejects.toThrow(/accounts made by its own factory/)
    expect(reads).toEqual(['slot', 'owner', 'getAddress'])
    await expect(checkSponsorable(kinds, deployedOp(sender))).rejects.toThrow(/sponsors only WalletKitAccounts/)
    // Where that factory does put it, it is taken, as a SimpleAccount, and never sponsored.
    state.simpleAccountAt = sender
    expect(await kinds.of(deployedOp(sender))).toBe('simple')
    await expect(checkSponsorable(kinds, deployedOp(sender))).rejects.toThrow(/sponsors only WalletKitAccounts/)
    // Back to our implementation: judged again, not taken from what was remembered for the other value.
    state.slot = pad(accountImplementationAddress.toLowerCase() as Hex)
    reads.length = 0
    expect(await kinds.of(deployedOp(sender))).toBe('walletKit')
    expect(reads).toEqual(['slot', 'owner'])
  })

  test('a stranger (our implementation written into its own slot, at no address our factory gives) is refused every time', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address
    const { client, reads } = chainStub(stranger, owner)
    const kinds = createAccountKinds(client)
    await expect(kinds.of(deployedOp(stranger))).rejects.toThrow(/accounts made by its own factory/)
    await expect(kinds.of(deployedOp(stranger))).rejects.toThrow(/accounts made by its own factory/)
    expect(reads).toEqual(['slot', 'owner', 'slot', 'owner'])
  })
})
