import { getAddress, pad, type Address, type Hex, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import { accountAddressOf, accountImplementationAddress } from '../../contracts/account-abstraction.ts'
import { createAccountKinds } from './account-kinds.ts'
import type { UserOp } from './bundler-types.ts'

/**
 * Red-team cases against the remembered account kinds that held: what one address was judged does
 * not answer for another, a spelling of the same address reads the chain as spelled, and a slot
 * wiped or rewritten is judged afresh.
 */
const someone = () => privateKeyToAccount(generatePrivateKey()).address
const ours = pad(accountImplementationAddress.toLowerCase() as Hex)

/** A chain where `slots` holds each address's ERC-1967 slot (lower-cased keys) and `owners` its owner. */
function chain(slots: Map<string, Hex>, owners: Map<string, Address>) {
  const asked: string[] = []
  const client = {
    async getStorageAt({ address }: { address: Address }) {
      asked.push(address)
      return slots.get(address.toLowerCase())
    },
    async readContract({ address, functionName }: { address: Address; functionName: string }) {
      if (functionName === 'owner') return owners.get(address.toLowerCase())
      throw new Error(`unexpected ${functionName}`)
    },
  } as unknown as PublicClient
  return { client, asked }
}
const judged = (kinds: ReturnType<typeof createAccountKinds>, sender: Address) =>
  kinds.of({ sender } as UserOp).then(
    (kind) => kind,
    (err: Error) => err.message,
  )

test("an impostor copying a remembered account's slot and claiming its owner is refused", async () => {
  const owner = someone()
  const genuine = accountAddressOf(owner)
  const impostor = someone()
  // The impostor writes our implementation into its own slot and answers owner() with the same owner.
  const slots = new Map([
    [genuine.toLowerCase(), ours],
    [impostor.toLowerCase(), ours],
  ])
  const owners = new Map([
    [genuine.toLowerCase(), owner],
    [impostor.toLowerCase(), owner],
  ])
  const kinds = createAccountKinds(chain(slots, owners).client)
  expect(await judged(kinds, genuine)).toBe('walletKit')
  expect(await judged(kinds, impostor)).toMatch(/accounts made by its own factory/)
  // Spelled in lower case it is still the impostor.
  expect(await judged(kinds, impostor.toLowerCase() as Address)).toMatch(/accounts made by its own factory/)
})

test('any spelling of a remembered account reads its slot as spelled and gets the same kind; a wiped slot is refused', async () => {
  const owner = someone()
  const sender = accountAddressOf(owner)
  const slots = new Map([[sender.toLowerCase(), ours]])
  const { client, asked } = chain(slots, new Map([[sender.toLowerCase(), owner]]))
  const kinds = createAccountKinds(client)
  expect(await judged(kinds, sender.toLowerCase() as Address)).toBe('walletKit')
  expect(await judged(kinds, getAddress(sender))).toBe('walletKit')
  expect(asked).toEqual([sender.toLowerCase(), getAddress(sender)])
  // storageStore lets the owner write any slot: a zero or empty slot is judged again, and refused.
  slots.set(sender.toLowerCase(), pad('0x0'))
  expect(await judged(kinds, sender)).toMatch(/accounts made by its own factory/)
  slots.set(sender.toLowerCase(), '0x')
  expect(await judged(kinds, sender)).toMatch(/accounts made by its own factory/)
})
