import {
  concat,
  domainSeparator,
  encodeFunctionData,
  getAddress,
  hashStruct,
  hashTypedData,
  keccak256,
  parseAbi,
  parseEther,
  recoverAddress,
  toPrefixedMessage,
  zeroHash,
  type Address,
  type Hex,
} from 'viem'
import { hashMessage as hash7739Message } from 'viem/experimental/erc7739'
import { beforeAll, describe, expect, test } from 'vitest'
import { operationTypedData } from '../../../sdk/smart-account/operation.ts'
import { smartAccountSandbox } from '../smart-account/smart-accounts.fixture.ts'
import { opById } from '../smart-account/queries.ts'

// Red team of "the wallet service signs no bare hash": a script holding a stolen wallet token (it
// sets any Origin it likes) tries every other signing route to get the owner key to authorise one
// of the user's smart account's operations, or to move the account's ETH, with no step-up. The
// 'smart' app asks a step-up above 0.01 ETH on chain 31337 here, as operation-step-up.test.ts does.

const f = smartAccountSandbox()
const { wallet, ethOf, accountsOf, anvil, publicClient } = f
const thief: Address = '0x00000000000000000000000000000000000fa11e'

beforeAll(async () => {
  await f.sandbox.store.query("UPDATE apps SET settings = settings || $1::jsonb WHERE app_id = 'smart'", [
    JSON.stringify({ stepUp: { transactionAbove: { '31337': '0.01' } } }),
  ])
  f.sandbox.store.readCache.delete('apps')
})

let users = 0
/** A user of the app whose wallet holds gas and whose smart account on chain 31337 holds 1 ETH, with one operation built (0.5 ETH out). */
async function newUser() {
  const user = await f.sandbox.signUp(`no-bare-hash-${++users}@example.com`, 'smart')
  const [account] = await accountsOf(user.address)
  const sender = account!.aaAddress as Address
  await anvil('anvil_setBalance', [sender, `0x${parseEther('1').toString(16)}`])
  await anvil('anvil_setBalance', [user.address, `0x${parseEther('1').toString(16)}`])
  const built = await f.sdk.smartAccount.userOp.signTransaction.hash({
    accountId: account!.id,
    calls: [{ to: thief, value: parseEther('0.5').toString(), data: '0x' }],
    isSponsored: true,
  })
  return { ...user, accountId: account!.id, sender, built: { userOpId: built.userOpId!, hash: built.hash as Hex } }
}
type User = Awaited<ReturnType<typeof newUser>>

const submit = (user: User, signature: string) =>
  f.sdk.smartAccount.userOp.submit({ hash: user.built.hash, userOpId: user.built.userOpId, signature, isSponsored: true }).catch((error) => error)

/** Nothing moved: the operation is still only built and the account keeps its 1 ETH. */
async function expectUntouched(user: User) {
  expect((await opById(f.sandbox.store, user.built.userOpId))?.status).toBe('built')
  expect(await ethOf(user.sender)).toBe(parseEther('1'))
}

const domainType = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
]

describe('sign-message: a personal_sign never authorises an operation', () => {
  test('the userOpHash, the operation digest and its 0x1901 preimage, as hex bytes or text: signed (EIP-191), refused by the account', async () => {
    const user = await newUser()
    const authorisation = operationTypedData({ chainId: 31337, account: user.sender, userOpHash: user.built.hash })
    const digest = hashTypedData(authorisation)
    const structHash = hashStruct({ data: authorisation.message, primaryType: authorisation.primaryType, types: authorisation.types })
    const preimage = concat(['0x1901', domainSeparator({ domain: authorisation.domain }), structHash])
    expect(keccak256(preimage)).toBe(digest)
    for (const message of [user.built.hash, digest, preimage, digest.slice(2), `\x19\x01${digest}`]) {
      const signed = await wallet('sign-message', { network: 'local-1', message }, user.walletToken)
      // Control characters in text may be refused outright; anything signed is checked below.
      if (signed.status === 400) continue
      expect(signed.status, JSON.stringify(signed.body)).toBe(200)
      // The owner's key signed, but not the digest: the account's check would not recover the owner.
      expect(await recoverAddress({ hash: digest, signature: signed.body.data.signature })).not.toBe(user.address)
      expect(await submit(user, signed.body.data.signature)).toMatchObject({ code: '400' })
    }
    await expectUntouched(user)
  })
})

describe("sign-typed-data: no spelling of the account's domain or of the operation is signed", () => {
  test.each([
    ['the exact authorisation with EIP712Domain given', (a: Auth) => ({ ...a, types: { EIP712Domain: domainType, ...a.types } })],
    ['chainId as a hex string', (a: Auth) => ({ ...a, domain: { ...a.domain, chainId: '0x7a69' } })],
    ['chainId as a decimal string', (a: Auth) => ({ ...a, domain: { ...a.domain, chainId: '31337' } })],
    ['verifyingContract in lower case', (a: Auth) => ({ ...a, domain: { ...a.domain, verifyingContract: a.domain.verifyingContract.toLowerCase() } })],
    ['a salt and no name', (a: Auth) => ({ ...a, domain: { version: '1', chainId: 31337, verifyingContract: a.domain.verifyingContract, salt: zeroHash } })],
    ['the name in lower case', (a: Auth) => ({ ...a, domain: { ...a.domain, name: 'walletkitaccount' } })],
    ['the name as its bytes', (a: Auth) => ({ ...a, types: { EIP712Domain: domainType, ...a.types }, domain: { ...a.domain, name: nameBytes } })],
    ['the operation nested in a wrapper type', (a: Auth) => wrapper(a)],
  ])('%s: refused or useless, the operation stays unsigned', async (_, spell) => {
    const user = await newUser()
    const data = spell(operationTypedData({ chainId: 31337, account: user.sender, userOpHash: user.built.hash }))
    const signed = await wallet('sign-typed-data', { network: 'local-1', data: JSON.stringify(data) }, user.walletToken)
    if (signed.status === 200) expect(await submit(user, signed.body.data.signature)).toMatchObject({ code: '400' })
    else expect(signed.status, JSON.stringify(signed.body)).toBe(400)
    await expectUntouched(user)
  })

  test("the account's own domain with its name given as bytes (EIP712Domain explicit) is refused: its PersonalSign would be the account's ERC-1271 signature", async () => {
    const user = await newUser()
    const message = 'Sign in to evil.example'
    const data = {
      types: { EIP712Domain: domainType, PersonalSign: [{ name: 'prefixed', type: 'bytes' }] },
      domain: { name: nameBytes, version: '1', chainId: 31337, verifyingContract: user.sender },
      primaryType: 'PersonalSign',
      message: { prefixed: toPrefixedMessage(message) },
    }
    const signed = await wallet('sign-typed-data', { network: 'local-1', data: JSON.stringify(data) }, user.walletToken)
    if (signed.status === 200) {
      // What it would be: the owner's signature of the account's ERC-7739 hash of the message.
      const verifierDomain = { name: 'WalletKitAccount', version: '1', chainId: 31337, verifyingContract: user.sender, salt: zeroHash }
      expect(await recoverAddress({ hash: hash7739Message({ message, verifierDomain }), signature: signed.body.data.signature })).toBe(user.address)
    }
    expect(signed.body).toEqual({ status: 400, message: "Typed data in a smart account's own domain is not signed here", data: null })
  })

  test("ERC-7739 TypedDataSign naming the user's account (a Permit2 transfer of its tokens) is refused, as the frame refuses it", async () => {
    const user = await newUser()
    const permit2: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
    const data = {
      types: {
        EIP712Domain: [domainType[0], domainType[2], domainType[3]],
        TypedDataSign: [
          { name: 'contents', type: 'PermitSingle' },
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
          { name: 'salt', type: 'bytes32' },
        ],
        PermitSingle: [
          { name: 'spender', type: 'address' },
          { name: 'amount', type: 'uint160' },
        ],
      },
      domain: { name: 'Permit2', chainId: 31337, verifyingContract: permit2 },
      primaryType: 'TypedDataSign',
      message: {
        contents: { spender: thief, amount: '1000000' },
        name: 'WalletKitAccount',
        version: '1',
        chainId: 31337,
        verifyingContract: user.sender,
        salt: zeroHash,
      },
    }
    const signed = await wallet('sign-typed-data', { network: 'local-1', data: JSON.stringify(data) }, user.walletToken)
    expect(signed.body).toEqual({ status: 400, message: "Typed data in a smart account's own domain is not signed here", data: null })
  })
})

describe('the wallet key calling its own smart account directly', () => {
  const accountAbi = parseAbi([
    'function execute(address target, uint256 value, bytes data)',
    'function transferOwnership(address newOwner)',
    'function owner() view returns (address)',
  ])

  test("execute or transferOwnership sent or signed with no native value needs a step-up: the account's ETH and owner stay; a plain top-up still goes", async () => {
    const user = await newUser()
    // The account is deployed (its own deploy operation, sponsored, below the threshold).
    const deploy = await f.sdk.smartAccount.userOp.deploy.hash({ accountId: user.accountId, isSponsored: true })
    const signedDeploy = await wallet('sign-user-operation', { userOpId: deploy.userOpId }, user.walletToken)
    await f.sdk.smartAccount.userOp.submit({ hash: deploy.hash, userOpId: deploy.userOpId!, signature: signedDeploy.body.data.signature, isSponsored: true })
    expect((await f.sdk.smartAccount.userOp.receipt({ userOpId: deploy.userOpId!, wait: true })).status).toBe('included')

    const drain = encodeFunctionData({ abi: accountAbi, functionName: 'execute', args: [thief, parseEther('0.5'), '0x'] })
    const takeOver = encodeFunctionData({ abi: accountAbi, functionName: 'transferOwnership', args: [thief] })
    for (const data of [drain, takeOver]) {
      const transaction = { from: user.address, to: user.sender, value: '0', data }
      // Held to the step-up rule as if it moved all the account holds.
      for (const path of ['send-transaction', 'sign-transaction'])
        expect((await wallet(path, { network: 'local-1', transaction }, user.walletToken)).body).toEqual({
          status: 403,
          message: 'Step-up required: confirm it with a second factor first',
          data: { stepUp: { action: 'send-transaction' } },
        })
    }
    // An account an older factory made sits at another address: the store's row says whose it is.
    const older = getAddress('0x0000000000000000000000000000000000001de5')
    await f.sandbox.store.query('UPDATE smart_accounts SET address = $1 WHERE owner = $2 AND chain_id = 31338', [older, getAddress(user.address)])
    const intoOlder = await wallet(
      'send-transaction',
      { network: 'local-1', transaction: { from: user.address, to: older, value: '0', data: drain } },
      user.walletToken,
    )
    expect(intoOlder.status, JSON.stringify(intoOlder.body)).toBe(403)
    expect(await ethOf(thief)).toBe(0n)
    expect(await publicClient().readContract({ address: user.sender, abi: accountAbi, functionName: 'owner' })).toBe(user.address)
    // Sending ETH to one's own account (no calldata) is a transfer like any other.
    const topUp = await wallet(
      'send-transaction',
      { network: 'local-1', transaction: { from: user.address, to: user.sender, value: '0.001', data: '0x' } },
      user.walletToken,
    )
    expect(topUp.status, JSON.stringify(topUp.body)).toBe(200)
    expect(await ethOf(user.sender)).toBe(parseEther('1.001'))
  })
})

type Auth = ReturnType<typeof operationTypedData>
const nameBytes = Array.from(new TextEncoder().encode('WalletKitAccount'))
const wrapper = (a: Auth) => ({
  domain: a.domain,
  types: { Wrapper: [{ name: 'op', type: 'WalletKitOperation' }], ...a.types },
  primaryType: 'Wrapper',
  message: { op: a.message },
})
