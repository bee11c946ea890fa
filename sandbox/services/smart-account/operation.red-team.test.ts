import { createWalletClient, encodeFunctionData, http, parseAbi, parseEther, type Address } from 'viem'
import { entryPoint07Abi, getUserOperationHash } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { operationTypedData } from '../../../sdk/smart-account/operation.ts'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import { viemChainOf } from '../../contracts/viem-chain.ts'
import { operationStepUp } from '../wallet/operation-step-up.fixture.ts'
import { loadOp, storedOp } from './bundler.ts'
import { opById } from './queries.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'

// Red team of sign-user-operation, as a script holding a stolen wallet token (the widget's unsigned
// calls, any Origin it likes): native value that leaves the account with no value on its calls, a
// proof spent twice, an account of another chain. The 'smart' app asks a step-up above 0.01 ETH on
// chain 31337 here.

const f = smartAccountSandbox({ rateLimits: { codesPerIp: { max: 200, windowMs: 600_000 } } })
const { wallet, ethOf, anvil, publicClient } = f
const thief: Address = '0x00000000000000000000000000000000000fa11e'
const { newUser, build, signOp, submit, proofFor, refused } = operationStepUp(f, 'op-red-team')
const ownerAbi = parseAbi(['function execute(address target, uint256 value, bytes data)', 'function transferOwnership(address newOwner)'])
const depositOf = (account: Address) =>
  publicClient().readContract({ address: entryPointAddress, abi: entryPoint07Abi, functionName: 'balanceOf', args: [account] })

describe('native value that leaves an operation with no value on its calls', () => {
  test("a call to the EntryPoint's withdrawTo (the account's deposit, 0 ETH on the call) needs a step-up like the value it moves", async () => {
    const user = await newUser()
    // Someone (the user, a dapp) deposited 0.5 ETH for the account at the EntryPoint: the account's own money.
    const key = privateKeyToAccount(generatePrivateKey())
    await anvil('anvil_setBalance', [key.address, `0x${parseEther('1').toString(16)}`])
    const funder = createWalletClient({ account: key, chain: viemChainOf(f.chain()), transport: http(f.chain().rpcUrl) })
    const deposit = await funder.writeContract({
      address: entryPointAddress,
      abi: entryPoint07Abi,
      functionName: 'depositTo',
      args: [user.sender],
      value: parseEther('0.5'),
    })
    await publicClient().waitForTransactionReceipt({ hash: deposit })
    expect(await depositOf(user.sender)).toBe(parseEther('0.5'))

    const withdraw = encodeFunctionData({ abi: entryPoint07Abi, functionName: 'withdrawTo', args: [thief, parseEther('0.5')] })
    const calls = [{ to: entryPointAddress, value: 0n, data: withdraw }]
    const built = await build(user, calls)
    const bare = await signOp(user, built.userOpId)
    if (bare.status === 200) {
      // What the hole gives: the operation runs and the deposit goes to the thief.
      await submit(built, bare.body.data.signature)
      await f.sdk.smartAccount.userOp.receipt({ userOpId: built.userOpId, wait: true })
      expect(await ethOf(thief)).toBe(parseEther('0.5'))
    }
    expect(bare.body).toEqual(refused('confirm it with a second factor first'))
    expect(await depositOf(user.sender)).toBe(parseEther('0.5'))
    // With the user's second factor for those very calls, it is signed and runs.
    const signed = await signOp(user, built.userOpId, await proofFor(user, calls))
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    expect(await submit(built, signed.body.data.signature)).toMatchObject({ status: 'submitted' })
    expect(await f.sdk.smartAccount.userOp.receipt({ userOpId: built.userOpId, wait: true })).toMatchObject({ status: 'included', success: true })
    expect(await ethOf(thief)).toBe(parseEther('0.5'))
  })

  test('a call to the account itself is refused when the operation is built', async () => {
    const user = await newUser()
    const error = await build(user, [{ to: user.sender, value: 0n, data: '0x' }]).catch((e) => e)
    expect(error).toMatchObject({ code: '400', message: expect.stringContaining('does not call itself') })
  })
  test('an operation stored with a call to the account itself (a new owner) is held as if it moved everything', async () => {
    const user = await newUser()
    const built = await build(user, [{ to: thief, value: 1n }])
    // No route builds one (above); a row written some other way (an older build, a bug) must not be signed for free.
    const row = (await opById(f.sandbox.store, built.userOpId))!
    const takeOver = encodeFunctionData({ abi: ownerAbi, functionName: 'transferOwnership', args: [thief] })
    const op = { ...loadOp(row), callData: encodeFunctionData({ abi: ownerAbi, functionName: 'execute', args: [user.sender, 0n, takeOver] }) }
    const hash = getUserOperationHash({ chainId: 31337, entryPointAddress, entryPointVersion: '0.7', userOperation: op })
    await f.sandbox.store.query('UPDATE user_operations SET user_op = $1, hash = $2 WHERE id = $3', [storedOp(op), hash.toLowerCase(), built.userOpId])
    expect((await signOp(user, built.userOpId)).body).toEqual(refused('confirm it with a second factor first'))
  })
})

describe('a step-up proof pays for one operation', () => {
  test('a proof spent on one operation is refused for a second operation with the very same calls', async () => {
    const user = await newUser()
    const calls = [{ to: thief, value: parseEther('0.02') }]
    const first = await build(user, calls)
    const proof = await proofFor(user, calls)
    const signed = await signOp(user, first.userOpId, proof)
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    expect(await submit(first, signed.body.data.signature)).toMatchObject({ status: 'submitted' })
    await f.sdk.smartAccount.userOp.receipt({ userOpId: first.userOpId, wait: true })
    // The same calls again, at the next nonce: the operationRequestHash is the same, the proof is not.
    const second = await build(user, calls)
    expect((await signOp(user, second.userOpId, proof)).body).toEqual(refused('the step-up proof was already used'))
    expect((await opById(f.sandbox.store, second.userOpId))?.status).toBe('built')
  })
})

describe('the account signatures never authorise an operation', () => {
  test("the user's own account on another chain: its ERC-7739 signature of the operation's typed data is refused at submit", async () => {
    const user = await newUser()
    const built = await build(user, [{ to: thief, value: parseEther('0.5') }])
    const authorisation = operationTypedData({ chainId: 31337, account: user.sender, userOpHash: built.hash })
    for (const accountId of [user.otherChainAccountId, user.accountId]) {
      const wrapped = await wallet('sign-account-typed-data', { accountId, typedData: JSON.stringify(authorisation) }, user.walletToken)
      expect(wrapped.status, JSON.stringify(wrapped.body)).toBe(200)
      expect(await submit(built, wrapped.body.data.signature)).toMatchObject({ code: '400' })
      const message = await wallet('sign-account-message', { accountId, message: built.hash }, user.walletToken)
      expect(await submit(built, message.body.data.signature)).toMatchObject({ code: '400' })
    }
    expect((await opById(f.sandbox.store, built.userOpId))?.status).toBe('built')
    expect(await ethOf(user.sender)).toBe(parseEther('1'))
  })
})
