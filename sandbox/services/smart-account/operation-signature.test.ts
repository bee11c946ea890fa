import { http, parseEther, type Address, type Hex } from 'viem'
import { createBundlerClient, toSoladySmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount, toAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { operationTypedData } from '../../../sdk/smart-account/operation.ts'
import { accountAddressOf, accountFactoryAddress, smartAccountSalt } from '../../contracts/account-abstraction.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'

// Issue 21: a site got the embedded wallet to personal_sign the 32 bytes of a userOpHash and sent
// the operation to the public bundler itself: the account accepted the owner's EIP-191 signature of
// its operation hash, so the site emptied it. An operation is now authorised only by the owner's
// EIP-712 signature in the account's own domain, which the frame never signs for a site.

const f = smartAccountSandbox()
const { publicClient, wallet, ethOf, accountsOf, anvil } = f

describe("the owner's signature of an operation", () => {
  test('a personal_sign of the userOpHash (what any site can ask the wallet for) moves nothing, with no credentials at the public bundler', async () => {
    const victim = await f.sandbox.signUp('smart-victim@example.com', 'smart')
    const [account] = await accountsOf(victim.address)
    const sender = account!.aaAddress as Address
    await anvil('anvil_setBalance', [sender, `0x${parseEther('1').toString(16)}`])
    const attacker = privateKeyToAccount(generatePrivateKey()).address

    // The site's view of the owner: every signature is the wallet service's personal_sign of the
    // bytes asked for, as the frame asks it on personal_sign (the user sees 32 opaque bytes).
    const asked: Hex[] = []
    const personalSigner = toAccount({
      address: victim.address as Address,
      async signMessage({ message }) {
        const raw = (typeof message === 'string' ? message : message.raw) as Hex
        asked.push(raw)
        return (await wallet('sign-message', { network: 'local-1', message: raw }, victim.walletToken)).body.data.signature as Hex
      },
      signTransaction: async () => {
        throw new Error('not asked')
      },
      signTypedData: async () => {
        throw new Error('not asked')
      },
    })
    const site = await toSoladySmartAccount({
      client: publicClient(),
      owner: personalSigner,
      factoryAddress: accountFactoryAddress,
      salt: smartAccountSalt(victim.address as Address),
    })
    expect(site.address).toBe(sender)
    const bundler = createBundlerClient({ account: site, client: publicClient(), transport: http(`${f.sandbox.url}/api/v1/bundler/31337`) })
    const sent = await bundler.sendUserOperation({ calls: [{ to: attacker, value: parseEther('0.9'), data: '0x' }] }).then(
      (hash) => ({ hash }),
      (error: Error) => ({ error: error.message }),
    )
    // The wallet did sign the bytes (a site can get that), and the account refused them.
    expect(asked.length).toBeGreaterThan(0)
    expect(asked.every((raw) => /^0x[0-9a-f]{64}$/i.test(raw))).toBe(true)
    expect(sent).toMatchObject({ error: expect.stringMatching(/AA24 signature error/) })
    expect(await ethOf(attacker)).toBe(0n)
    expect(await ethOf(sender)).toBe(parseEther('1'))
  })

  test('the service takes only the EIP-712 signature in the account domain; an EIP-191 one of the same hash is refused before the bundler', async () => {
    const user = await f.sandbox.signUp('smart-domain@example.com', 'smart')
    const [account] = await accountsOf(user.address)
    const built = await f.sdk.smartAccount.userOp.deploy.hash({ accountId: account!.id, isSponsored: true })
    const personal = (await wallet('sign-message', { network: 'local-1', message: built.hash }, user.walletToken)).body.data.signature as Hex
    const submit = (signature: string, op = built) =>
      f.sdk.smartAccount.userOp.submit({ hash: op.hash, userOpId: op.userOpId!, signature, isSponsored: true }).catch((error) => error)
    expect(await submit(personal)).toMatchObject({ code: '400', message: expect.stringContaining("not the owner's") })
    expect(await submit((await wallet('sign-user-operation', { userOpId: built.userOpId }, user.walletToken)).body.data.signature)).toMatchObject({
      status: 'submitted',
    })
    expect((await f.sdk.smartAccount.userOp.receipt({ userOpId: built.userOpId!, wait: true })).status).toBe('included')
    expect(await publicClient().getCode({ address: account!.aaAddress as Address })).toBeTruthy()

    // Bound to the chain and the account: an owner key the test holds (an app back end's owner)
    // signs the same operation in another chain's or account's domain, and the service refuses it.
    const key = privateKeyToAccount(generatePrivateKey())
    const [own] = await accountsOf(key.address)
    const sender = own!.aaAddress as Address
    const ownBuilt = await f.sdk.smartAccount.userOp.deploy.hash({ accountId: own!.id, isSponsored: true })
    const signed = (chainId: number, verifyingContract: Address) =>
      key.signTypedData(operationTypedData({ chainId, account: verifyingContract, userOpHash: ownBuilt.hash as Hex }))
    expect(await submit(await signed(31338, sender), ownBuilt)).toMatchObject({ code: '400' })
    expect(await submit(await signed(31337, key.address), ownBuilt)).toMatchObject({ code: '400' })
    expect(await submit(await signed(31337, sender), ownBuilt)).toMatchObject({ status: 'submitted' })
  })

  test("an undeployed account whose address an older factory computed moves to the current factory's address", async () => {
    const user = await f.sandbox.signUp('smart-moved@example.com', 'smart')
    const [before] = await accountsOf(user.address)
    expect(before!.aaAddress).toBe(accountAddressOf(user.address as Address))
    const stale = privateKeyToAccount(generatePrivateKey()).address
    await f.sandbox.store.query('UPDATE smart_accounts SET address = $2 WHERE id = $1', [before!.id, stale])
    const [after] = await accountsOf(user.address)
    expect(after).toMatchObject({ id: before!.id, aaAddress: accountAddressOf(user.address as Address), status: 'not_deployed' })
  })
})
