import { encodeFunctionData, getAddress, http, parseAbi, parseEther, type Address, type LocalAccount, type PublicClient } from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint07Abi, getUserOperationHash, toSmartAccount, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { entryPointAddress, simpleAccountFactoryAddress, simpleAccountImplementationAddress } from '../../contracts/account-abstraction.ts'
import { createAccountKinds } from './account-kinds.ts'
import { checkOperation } from './bundler-policy.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'

// eth-infinitism's SimpleAccount v0.7 at the canonical factory stock clients default to: its own
// operations, paid by itself, go through the public bundler; no app's gas tank ever sponsors one
// (its owner's personal_sign of the userOpHash spends it).

const f = smartAccountSandbox()
const { publicClient } = f

const factoryAbi = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
  'function accountImplementation() view returns (address)',
])
const accountAbi = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
  'function owner() view returns (address)',
  'function entryPoint() view returns (address)',
])

/**
 * A SimpleAccount v0.7 as permissionless's toSimpleSmartAccount models it by default (its factory,
 * salt 0, the owner's EIP-191 signature of the userOpHash), written on viem's toSmartAccount:
 * permissionless is not a dependency of this repository.
 */
async function simpleAccountOf(client: PublicClient, owner: LocalAccount) {
  const address = await client.readContract({ address: simpleAccountFactoryAddress, abi: factoryAbi, functionName: 'getAddress', args: [owner.address, 0n] })
  const entryPoint = { abi: entryPoint07Abi, address: entryPointAddress, version: '0.7' } as const
  return toSmartAccount({
    client,
    entryPoint,
    getAddress: async () => address,
    getFactoryArgs: async () => ({
      factory: simpleAccountFactoryAddress,
      factoryData: encodeFunctionData({ abi: factoryAbi, functionName: 'createAccount', args: [owner.address, 0n] }),
    }),
    encodeCalls: async (calls) =>
      calls.length === 1
        ? encodeFunctionData({ abi: accountAbi, functionName: 'execute', args: [calls[0]!.to, calls[0]!.value ?? 0n, calls[0]!.data ?? '0x'] })
        : encodeFunctionData({
            abi: accountAbi,
            functionName: 'executeBatch',
            args: [calls.map((c) => c.to), calls.map((c) => c.value ?? 0n), calls.map((c) => c.data ?? '0x')],
          }),
    getStubSignature: async () =>
      '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c',
    signMessage: ({ message }) => owner.signMessage({ message }),
    signTypedData: (typedData) => owner.signTypedData(typedData as Parameters<LocalAccount['signTypedData']>[0]),
    async signUserOperation({ chainId = client.chain!.id, ...userOperation }) {
      const hash = getUserOperationHash({
        chainId,
        entryPointAddress,
        entryPointVersion: '0.7',
        userOperation: { ...userOperation, sender: address } as Parameters<typeof getUserOperationHash>[0]['userOperation'],
      })
      return owner.signMessage({ message: { raw: hash } })
    },
  })
}

const bundlerUrl = () => `${f.sandbox.url}/api/v1/bundler/31337`
const smartAppHeaders = { 'x-app-id': 'smart', 'x-environment': 'production', 'x-client-secret': 'smart-client-secret' }

describe('SimpleAccount v0.7 at the canonical factory', () => {
  test('the factory is at its canonical address, deployed from the package, with its implementation on our EntryPoint', async () => {
    const client = publicClient()
    expect(await client.getCode({ address: simpleAccountFactoryAddress })).toMatch(/^0x[0-9a-f]{100,}/)
    expect(await client.readContract({ address: simpleAccountFactoryAddress, abi: factoryAbi, functionName: 'accountImplementation' })).toBe(
      simpleAccountImplementationAddress,
    )
    expect(getAddress(await client.readContract({ address: simpleAccountImplementationAddress, abi: accountAbi, functionName: 'entryPoint' }))).toBe(
      entryPointAddress,
    )
  })

  test('a self-paid operation of a stock-shaped SimpleAccount is included through the public bundler (deploy, then deployed)', async () => {
    const client = publicClient()
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await simpleAccountOf(client, owner)
    await f.anvil('anvil_setBalance', [account.address, '0xde0b6b3a7640000'])
    const bundler = createBundlerClient({ account, client, transport: http(bundlerUrl()), pollingInterval: 100 })
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    for (const value of [parseEther('0.1'), parseEther('0.2')]) {
      const hash = await bundler.sendUserOperation({ calls: [{ to: receiver, value, data: '0x' }] })
      expect((await bundler.waitForUserOperationReceipt({ hash })).success).toBe(true)
    }
    expect(await client.getBalance({ address: receiver })).toBe(parseEther('0.3'))
    expect(await client.readContract({ address: account.address, abi: accountAbi, functionName: 'owner' })).toBe(owner.address)
  })

  test("no app's gas tank sponsors one: pm_getPaymasterData refuses it, and the bundler refuses it with our paymaster", async () => {
    const client = publicClient()
    const account = await simpleAccountOf(client, privateKeyToAccount(generatePrivateKey()))
    const tankBefore = await f.tank()
    const paymaster = createPaymasterClient({ transport: http(bundlerUrl(), { fetchOptions: { headers: smartAppHeaders } }) })
    const sponsored = createBundlerClient({ account, client, paymaster, transport: http(bundlerUrl()) })
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    await expect(sponsored.sendUserOperation({ calls: [{ to: receiver, value: 0n, data: '0x' }] })).rejects.toThrow(/sponsors only WalletKitAccounts/)

    // With paymaster fields from elsewhere (the stub, as if signed), the bundler's policy refuses it before anything is spent.
    const op = await createBundlerClient({ account, client, transport: http(bundlerUrl()) }).prepareUserOperation({
      calls: [{ to: receiver, value: 0n, data: '0x' }],
    })
    const stub = await paymaster.getPaymasterStubData({ ...op, chainId: 31337, entryPointAddress })
    // The paymaster itself hands out no signature for it (whoever would include it: us, or anyone's handleOps).
    await expect(paymaster.getPaymasterData({ ...op, ...stub, chainId: 31337, entryPointAddress })).rejects.toThrow(/sponsors only WalletKitAccounts/)
    const withPaymaster = { ...op, ...stub, paymasterPostOpGasLimit: 0n } as UserOperation<'0.7'>
    await expect(checkOperation(client, createAccountKinds(client), withPaymaster, stub.paymaster as Address)).rejects.toThrow(
      /sponsors only WalletKitAccounts/,
    )
    // The same operation self-paid passes the policy.
    await expect(checkOperation(client, createAccountKinds(client), op as UserOperation<'0.7'>, stub.paymaster as Address)).resolves.toBeUndefined()
    expect(await f.tank()).toBe(tankBefore)
    expect(await client.getCode({ address: account.address })).toBeUndefined()
  })
})
