import { encodeFunctionData, http, pad, parseAbi, type Address, type LocalAccount, type PublicClient } from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint07Abi, getUserOperationHash, toSmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import { accountImplementationAddress, entryPointAddress, simpleAccountImplementationAddress } from '../../contracts/account-abstraction.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'
import { createClient } from '../../../sdk/index.ts'

const f = smartAccountSandbox()
const accountAbi = parseAbi(['function execute(address dest, uint256 value, bytes func)', 'function owner() view returns (address)'])
const implementationSlot = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'

function personalSignAccount(client: PublicClient, address: Address, owner: LocalAccount) {
  return toSmartAccount({
    client,
    entryPoint: { abi: entryPoint07Abi, address: entryPointAddress, version: '0.7' } as const,
    getAddress: async () => address,
    getFactoryArgs: async () => ({ factory: undefined, factoryData: undefined }),
    encodeCalls: async (calls) =>
      encodeFunctionData({ abi: accountAbi, functionName: 'execute', args: [calls[0]!.to, calls[0]!.value ?? 0n, calls[0]!.data ?? '0x'] }),
    getStubSignature: async () =>
      '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c',
    signMessage: ({ message }) => owner.signMessage({ message }),
    signTypedData: (t) => owner.signTypedData(t as Parameters<LocalAccount['signTypedData']>[0]),
    async signUserOperation({ chainId = client.chain!.id, ...op }) {
      const hash = getUserOperationHash({
        chainId,
        entryPointAddress,
        entryPointVersion: '0.7',
        userOperation: { ...op, sender: address } as Parameters<typeof getUserOperationHash>[0]['userOperation'],
      })
      return owner.signMessage({ message: { raw: hash } }) // personal_sign of the userOpHash
    },
  })
}

// Red team: any contract can write our implementation's address into its own ERC-1967 slot. The
// bundler read only that slot, so a SimpleAccount's code with our implementation in the slot was
// taken for a WalletKitAccount and sponsored from an app's gas tank, though one personal_sign of the
// userOpHash by its owner spends it. An account is now ours only where our factory puts its owner's.

test('a contract with our implementation in its ERC-1967 slot but not made by our factory is neither sponsored nor bundled', async () => {
  const client = f.publicClient()
  const owner = privateKeyToAccount(generatePrivateKey())
  const fake = '0x00000000000000000000000000000000000fa4e0' as Address
  // What an attacker's one deployment does: SimpleAccount's code, its owner, and our implementation's address in the slot the bundler reads.
  await f.anvil('anvil_setCode', [fake, await client.getCode({ address: simpleAccountImplementationAddress })])
  await f.anvil('anvil_setStorageAt', [fake, pad('0x0'), pad(owner.address)])
  await f.anvil('anvil_setStorageAt', [fake, implementationSlot, pad(accountImplementationAddress)])
  await f.anvil('anvil_setBalance', [fake, '0xde0b6b3a7640000'])
  expect(await client.readContract({ address: fake, abi: accountAbi, functionName: 'owner' })).toBe(owner.address)
  const tank = async () => BigInt((await appClient().smartAccount.gasTank({ chainId: 31337 })).balance)
  const tankBefore = await tank()
  const headers = { 'x-app-id': 'smart', 'x-environment': 'production', 'x-client-secret': 'smart-client-secret' }
  const bundlerUrl = `${f.sandbox.url}/api/v1/bundler/31337`
  const account = await personalSignAccount(client, fake, owner)

  const paymaster = createPaymasterClient({ transport: http(bundlerUrl, { fetchOptions: { headers } }) })
  const sponsored = createBundlerClient({ account, client, paymaster, transport: http(bundlerUrl), pollingInterval: 100 })
  await expect(sponsored.sendUserOperation({ calls: [{ to: owner.address, value: 0n, data: '0x' }] })).rejects.toThrow(
    /made by its own factory|sponsors only WalletKitAccounts/,
  )
  // Asked directly, with gas figures of its own, the paymaster does not sign for it either.
  const op = {
    sender: fake,
    nonce: '0x0',
    callData: await account.encodeCalls([{ to: owner.address, value: 0n, data: '0x' }]),
    callGasLimit: '0x10000',
    verificationGasLimit: '0x10000',
    preVerificationGas: '0x10000',
    maxFeePerGas: '0x3b9aca00',
    maxPriorityFeePerGas: '0x1',
    signature: await account.getStubSignature(),
  }
  const answer = await fetch(bundlerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pm_getPaymasterData', params: [op, entryPointAddress, '0x7a69', {}] }),
  }).then((r) => r.json() as Promise<{ result?: unknown; error?: { code: number; message: string } }>)
  expect(answer.result).toBeUndefined()
  expect(answer.error).toMatchObject({ code: -32501, message: expect.stringMatching(/sponsors only WalletKitAccounts/) })
  // Self-paid, it is still not an account the bundler knows the validation code of.
  const selfPaid = createBundlerClient({ account, client, transport: http(bundlerUrl), pollingInterval: 100 })
  await expect(selfPaid.sendUserOperation({ calls: [{ to: owner.address, value: 0n, data: '0x' }] })).rejects.toThrow(/made by its own factory/)
  expect(await tank()).toBe(tankBefore)
}, 120_000)

const appClient = () =>
  createClient({
    appId: 'smart',
    env: 'production',
    clientSecret: 'smart-client-secret',
    baseUrls: { smartAccount: `${f.sandbox.url}/api/v1`, wallet: `${f.sandbox.url}/api/v2`, ramp: `${f.sandbox.url}/v1`, appConfig: `${f.sandbox.url}/api/v1` },
  })
