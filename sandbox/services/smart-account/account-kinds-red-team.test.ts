import { pad, type Address, type Hex, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import { accountAddressOf, accountImplementationAddress } from '../../contracts/account-abstraction.ts'
import { createAccountKinds } from './account-kinds.ts'
import type { UserOp } from './bundler-types.ts'

/**
 * Red-team finding (fails until fixed): the remembered kind is keyed on the ERC-1967 slot alone,
 * "the slot is all that can change", but the judgement also read the account's owner (it must sit
 * at its owner's CREATE2 address), and a WalletKitAccount's owner can change (Solady's
 * transferOwnership, which the account may call on itself). The answer then depends on whether
 * this process saw the account before: a restart flips it.
 */
const someone = () => privateKeyToAccount(generatePrivateKey()).address

function chain(sender: Address, owner: { now: Address }) {
  return {
    async getStorageAt({ address }: { address: Address }) {
      return address === sender ? pad(accountImplementationAddress.toLowerCase() as Hex) : undefined
    },
    async readContract({ address, functionName }: { address: Address; functionName: string }) {
      if (functionName === 'owner' && address === sender) return owner.now
      throw new Error(`unexpected ${functionName}`)
    },
  } as unknown as PublicClient
}

test('an account whose owner changed is judged alike whether or not it was remembered', async () => {
  const owner = { now: someone() }
  const sender = accountAddressOf(owner.now)
  const client = chain(sender, owner)
  const warm = createAccountKinds(client)
  expect(await warm.of({ sender } as UserOp)).toBe('walletKit')
  // The account hands itself to another key; its implementation slot is unchanged.
  owner.now = someone()
  const fresh = createAccountKinds(client)
  const judged = (kinds: ReturnType<typeof createAccountKinds>) =>
    kinds.of({ sender } as UserOp).then(
      (kind) => kind,
      (err: Error) => err.message,
    )
  const afresh = await judged(fresh)
  expect(afresh).toMatch(/accounts made by its own factory/)
  // Today the process that saw it before still answers 'walletKit'.
  expect(await judged(warm)).toBe(afresh)
})
