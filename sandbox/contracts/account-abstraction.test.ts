import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  isErc6492Signature,
  parseEther,
  parseEventLogs,
  publicActions,
  type Address,
  type PublicClient,
} from 'viem'
import { toPackedUserOperation, toSoladySmartAccount, type SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startAnvil, type Anvil } from '../infra/anvil/anvil.ts'
import { localChains, type RunningChain } from '../infra/anvil/local-chains.ts'
import { adminClient } from '../infra/anvil/public-accounts.ts'
import { accountFactory, smartAccountAddressOf } from '../../sdk/smart-account/operation.ts'
import { viemChainOf } from './viem-chain.ts'
import {
  accountFactoryAbi,
  accountFactoryAddress,
  accountImplementationAddress,
  create2DeployerAddress,
  depositOf,
  ensureAccountAbstraction,
  entryPointAbi,
  entryPointAddress,
  paymasterAddressFor,
  paymasterStubFields,
  retiredAccountImplementations,
  smartAccountSalt,
  sponsor,
  toWalletKitSmartAccount,
  verifyingPaymasterAbi,
  type SponsorableUserOperation,
  simpleAccountFactoryAddress,
  simpleAccountImplementationAddress,
} from './account-abstraction.ts'

const anvils: Anvil[] = []
const chains: RunningChain[] = []
beforeAll(async () => {
  for (const chain of localChains) {
    const anvil = await startAnvil({ chainId: chain.chainId, port: 0 })
    anvils.push(anvil)
    chains.push({ ...chain, rpcUrl: anvil.rpcUrl })
  }
}, 60_000)
afterAll(async () => {
  for (const anvil of anvils) await anvil.stop()
})

const verifyingSigner = privateKeyToAccount(generatePrivateKey())
const deposit = parseEther('1')
const ensure = (chain: RunningChain, paymasterDeposit = deposit) =>
  ensureAccountAbstraction(chain, { paymasterSigner: verifyingSigner.address, paymasterDeposit })

/** A funded EOA on `chain` (a bundler, or anyone calling the factory). */
async function fundedWallet(chain: RunningChain) {
  const account = privateKeyToAccount(generatePrivateKey())
  await adminClient(chain).setBalance({ address: account.address, value: parseEther('10') })
  return createWalletClient({ account, chain: viemChainOf(chain), transport: http(chain.rpcUrl), pollingInterval: 50 }).extend(publicActions)
}

const publicClientOf = (chain: RunningChain) =>
  createPublicClient({ chain: viemChainOf(chain), transport: http(chain.rpcUrl), pollingInterval: 50 }) as PublicClient

const smartAccountOf = (client: PublicClient, owner = privateKeyToAccount(generatePrivateKey())) => toWalletKitSmartAccount({ client, owner })

describe('ensureAccountAbstraction', () => {
  test.each([0, 1])('chain %i: the contracts land at the exported addresses; a second run sends nothing and keeps the deposit', async (index) => {
    const chain = chains[index]!
    const admin = adminClient(chain)
    const start = await admin.getBlockNumber({ cacheTime: 0 })
    const { paymaster } = await ensure(chain)

    expect(entryPointAddress).toBe('0x0000000071727De22E5E9d8BAf0edAc6f37da032')
    expect(paymaster).toBe(paymasterAddressFor(verifyingSigner.address))
    for (const address of [entryPointAddress, accountImplementationAddress, accountFactoryAddress, paymaster, simpleAccountFactoryAddress])
      expect((await admin.getCode({ address }))?.length, address).toBeGreaterThan(1000)
    // The canonical SimpleAccountFactory v0.7 (where stock clients look), deployed, with its own implementation.
    expect(simpleAccountFactoryAddress).toBe('0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985')
    expect((await admin.getCode({ address: simpleAccountImplementationAddress }))?.length).toBeGreaterThan(1000)
    expect(await admin.readContract({ address: accountFactoryAddress, abi: accountFactoryAbi, functionName: 'implementation' })).toBe(
      accountImplementationAddress,
    )
    // What the frame computes an owner's account address from (sdk/smart-account/operation.ts) is this factory's.
    expect(accountFactory.address).toBe(accountFactoryAddress)
    expect(await admin.readContract({ address: accountFactoryAddress, abi: accountFactoryAbi, functionName: 'initCodeHash' })).toBe(
      accountFactory.proxyInitCodeHash,
    )
    expect(await admin.readContract({ address: paymaster, abi: verifyingPaymasterAbi, functionName: 'verifyingSigner' })).toBe(verifyingSigner.address)
    expect(await admin.readContract({ address: paymaster, abi: verifyingPaymasterAbi, functionName: 'entryPoint' })).toBe(entryPointAddress)
    // Deployed through the CREATE2 deployer, so the paymaster's owner is that contract: nobody withdraws.
    expect(await admin.readContract({ address: paymaster, abi: verifyingPaymasterAbi, functionName: 'owner' })).toBe(create2DeployerAddress)
    expect(await depositOf(chain, paymaster)).toBe(deposit)

    // Five deploys and a deposit, from a throw-away key that was emptied afterwards.
    const deployed = await admin.getBlockNumber({ cacheTime: 0 })
    expect(deployed - start).toBe(6n)
    const first = await admin.getBlock({ blockNumber: start + 1n, includeTransactions: true })
    expect(first.transactions[0]!.to).toBe(create2DeployerAddress.toLowerCase())
    expect(await admin.getBalance({ address: first.transactions[0]!.from })).toBe(0n)

    expect(await ensure(chain)).toEqual({ paymaster })
    expect(await admin.getBlockNumber({ cacheTime: 0 })).toBe(deployed)
    expect(await depositOf(chain, paymaster)).toBe(deposit)

    // A larger deposit is topped up by the difference, with one transaction and no deploy.
    await ensure(chain, 2n * deposit)
    expect(await admin.getBlockNumber({ cacheTime: 0 })).toBe(deployed + 1n)
    expect(await depositOf(chain, paymaster)).toBe(2n * deposit)
  })
})

test('a retired implementation (it took a personal_sign of the userOpHash) gets the current code: its accounts keep address and balance', async () => {
  const chain = chains[1]!
  await ensure(chain)
  const admin = adminClient(chain)
  const [retired] = retiredAccountImplementations
  // A chain restored from an older data folder: something else at the retired implementation's address.
  await admin.setCode({ address: retired!, bytecode: '0x6000' })
  await ensure(chain)
  expect(await admin.getCode({ address: retired! })).toBe(await admin.getCode({ address: accountImplementationAddress }))
  // A fresh chain has nothing there, and gets nothing.
  await admin.setCode({ address: retired!, bytecode: '0x' })
  await ensure(chain)
  expect(await admin.getCode({ address: retired! })).toBeUndefined()
})

describe('smart accounts (toSoladySmartAccount on WalletKitAccountFactory)', () => {
  const mail = {
    domain: { name: 'Demo Mail', version: '1', chainId: 31337, verifyingContract: '0x000000000000000000000000000000000000dEaD' as Address },
    types: { Mail: [{ name: 'contents', type: 'string' }] },
    primaryType: 'Mail',
    message: { contents: 'hello' },
  } as const
  const message = 'Sign in to Demo'

  async function signAndVerify(client: PublicClient, account: SmartAccount) {
    const signatures = { message: await account.signMessage({ message }), typed: await account.signTypedData(mail) }
    expect(await client.verifyMessage({ address: account.address, message, signature: signatures.message })).toBe(true)
    expect(await client.verifyTypedData({ address: account.address, ...mail, signature: signatures.typed })).toBe(true)
    expect(await client.verifyMessage({ address: account.address, message: 'something else', signature: signatures.message })).toBe(false)
    expect(await client.verifyTypedData({ address: account.address, ...mail, message: { contents: 'bye' }, signature: signatures.typed })).toBe(false)
    return signatures
  }

  test('each owner has its own address; signatures verify before deployment (ERC-6492) and after', async () => {
    const chain = chains[0]!
    await ensure(chain)
    const client = publicClientOf(chain)
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await smartAccountOf(client, owner)
    const other = await smartAccountOf(client)
    expect(account.address).not.toBe(other.address)
    expect(await smartAccountOf(client, owner).then((again) => again.address)).toBe(account.address)
    expect(await client.getCode({ address: account.address })).toBeUndefined()
    expect(smartAccountAddressOf(owner.address)).toBe(account.address)

    const before = await signAndVerify(client, account)
    expect(isErc6492Signature(before.message) && isErc6492Signature(before.typed)).toBe(true)
    const stranger = await other.signMessage({ message })
    expect(await client.verifyMessage({ address: account.address, message, signature: stranger })).toBe(false)

    const wallet = await fundedWallet(chain)
    // The salt must start with the owner: another owner cannot take this address.
    await expect(
      wallet.simulateContract({
        address: accountFactoryAddress,
        abi: accountFactoryAbi,
        functionName: 'createAccount',
        args: [other.address, smartAccountSalt(owner.address)],
      }),
    ).rejects.toThrow(/SaltDoesNotStartWithOwner/)
    const hash = await wallet.writeContract({
      address: accountFactoryAddress,
      abi: accountFactoryAbi,
      functionName: 'createAccount',
      args: [owner.address, smartAccountSalt(owner.address)],
    })
    expect((await wallet.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect(await account.isDeployed()).toBe(true)
    expect(await client.readContract({ address: account.address, abi: account.abi, functionName: 'owner' })).toBe(owner.address)

    const after = await signAndVerify(client, account)
    expect(isErc6492Signature(after.message) || isErc6492Signature(after.typed)).toBe(false)
    expect(await client.verifyMessage({ address: account.address, message, signature: before.message })).toBe(true)
  })

  test('a sponsored user operation deploys an account holding 0 ETH and runs its call through handleOps', async () => {
    const chain = chains[0]!
    const { paymaster } = await ensure(chain)
    const client = publicClientOf(chain)
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await smartAccountOf(client, owner)
    const bundler = await fundedWallet(chain)
    expect(await client.getBalance({ address: account.address })).toBe(0n)

    // The call: EntryPoint.incrementNonce(1) from the account, visible as the account's nonce of key 1.
    const call = { to: entryPointAddress, data: encodeFunctionData({ abi: entryPointAbi, functionName: 'incrementNonce', args: [1n] }) }
    const fees = await client.estimateFeesPerGas()
    const { timestamp } = await client.getBlock()
    const userOp: SponsorableUserOperation = {
      sender: account.address,
      nonce: await account.getNonce(),
      ...(await account.getFactoryArgs()),
      callData: await account.encodeCalls([call]),
      callGasLimit: 100_000n,
      verificationGasLimit: 500_000n,
      preVerificationGas: 50_000n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    }
    const validUntil = Number(timestamp) + 600
    const handleOps = async (fields: Awaited<ReturnType<typeof sponsor>>) => {
      const signature = await account.signUserOperation({ ...userOp, ...fields, signature: '0x' })
      return bundler.simulateContract({
        address: entryPointAddress,
        abi: entryPointAbi,
        functionName: 'handleOps',
        args: [[toPackedUserOperation({ ...userOp, ...fields, signature })], bundler.account.address],
      })
    }

    // The stub recovers to a stranger: a signature failure (AA34), not a revert inside ecrecover (AA33).
    await expect(handleOps(paymasterStubFields({ paymaster, validUntil, userOp }))).rejects.toThrow(/AA34 signature error/)
    // Signed by another key: refused too.
    const stranger = privateKeyToAccount(generatePrivateKey())
    await expect(handleOps(await sponsor(client, { paymaster, signer: stranger, userOp, validUntil }))).rejects.toThrow(/AA34 signature error/)

    const fields = await sponsor(client, { paymaster, signer: verifyingSigner, userOp, validUntil })
    // The owner's EIP-191 signature of the userOpHash (Solady's default, what a site can get with personal_sign) is refused.
    const personal = await toSoladySmartAccount({ client, owner, factoryAddress: accountFactoryAddress, salt: smartAccountSalt(owner.address) })
    expect(personal.address).toBe(account.address)
    const personalSignature = await personal.signUserOperation({ ...userOp, ...fields, signature: '0x' })
    await expect(
      bundler.simulateContract({
        address: entryPointAddress,
        abi: entryPointAbi,
        functionName: 'handleOps',
        args: [[toPackedUserOperation({ ...userOp, ...fields, signature: personalSignature })], bundler.account.address],
      }),
    ).rejects.toThrow(/AA24 signature error/)
    expect(fields.paymaster).toBe(paymaster)
    expect(fields.paymasterData.length).toBe(2 + 2 * (64 + 65))
    const depositBefore = await depositOf(chain, paymaster)
    const { request } = await handleOps(fields)
    const receipt = await bundler.waitForTransactionReceipt({ hash: await bundler.writeContract(request) })
    expect(receipt.status).toBe('success')
    const [event] = parseEventLogs({ abi: entryPointAbi, logs: receipt.logs, eventName: 'UserOperationEvent' })
    expect(event?.args).toMatchObject({ sender: account.address, paymaster, success: true })
    expect(parseEventLogs({ abi: entryPointAbi, logs: receipt.logs, eventName: 'AccountDeployed' })[0]?.args.factory).toBe(accountFactoryAddress)
    expect(await account.isDeployed()).toBe(true)
    expect(await client.readContract({ address: entryPointAddress, abi: entryPointAbi, functionName: 'getNonce', args: [account.address, 1n] })).toBe(
      (1n << 64n) | 1n,
    )
    expect(await client.getBalance({ address: account.address })).toBe(0n)
    expect(await depositOf(chain, paymaster)).toBe(depositBefore - event!.args.actualGasCost)
    console.info(`sponsored deploy + call: handleOps gasUsed ${receipt.gasUsed}, UserOperationEvent actualGasUsed ${event!.args.actualGasUsed}`)
  })
})
