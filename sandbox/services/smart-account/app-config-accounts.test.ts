import { createPublicClient, defineChain, encodeFunctionData, http, parseAbi, parseEther, type Hex } from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint07Abi, getUserOperationHash, toSoladySmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { accountSaltOf, createAppConfigClient, smartAccountContractsOf, type ChainConfig } from '../../../sdk/index.ts'
import { operationTypedData } from '../../../sdk/smart-account/operation.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'

// A third party with nothing but app config: it finds the smart-account contracts there, builds
// viem's stock toSoladySmartAccount on them and sends an operation through the sandbox's bundler.

const f = smartAccountSandbox()

/** App config of the 'smart' app over HTTP (the sdk's client), and what it says of chain 31337. */
async function fromAppConfig() {
  const config = await createAppConfigClient({ appId: 'smart', env: 'sandbox', baseUrls: { appConfig: `${f.sandbox.url}/api/v1` } }).get()
  const chain = config.chains.find((c) => c.chainId === 31337) as ChainConfig
  const contracts = smartAccountContractsOf(chain)
  if (!contracts) throw new Error('App config names no smart-account contracts for chain 31337')
  const viemChain = defineChain({ id: chain.chainId, name: chain.name, nativeCurrency: chain.nativeCurrency, rpcUrls: { default: { http: chain.rpcUrls } } })
  const client = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrls[0]), pollingInterval: 100 })
  return { config, chain, contracts, client }
}

/** Stock toSoladySmartAccount on what app config names: its factory, its EntryPoint, the salt by its rule. */
async function stockAccount(owner = privateKeyToAccount(generatePrivateKey())) {
  const { contracts, client } = await fromAppConfig()
  const account = await toSoladySmartAccount({
    client,
    owner,
    factoryAddress: contracts.accountFactory.address,
    entryPoint: { abi: entryPoint07Abi, address: contracts.entryPoint.address, version: contracts.entryPoint.version },
    salt: accountSaltOf(owner.address),
  })
  return { owner, account, client, contracts }
}

const factoryAbi = parseAbi(['function createAccount(address owner, bytes32 salt) payable returns (address)'])

describe("viem's toSoladySmartAccount from app config alone", () => {
  test('app config lists the EntryPoint v0.7, the factory and its salt rule, the implementation and the paymaster on each local chain, for every app', async () => {
    const { config } = await fromAppConfig()
    for (const chain of config.chains) expect(smartAccountContractsOf(chain), `chain ${chain.chainId}`).toBeDefined()
    const smart = config.chains.map(smartAccountContractsOf)
    // The same contracts on both chains (CREATE2 through the same deployer, the same paymaster signer).
    expect(smart[1]).toEqual(smart[0])
    expect(smart[0]).toMatchObject({
      entryPoint: { version: '0.7' },
      accountFactory: { accountType: 'solady', saltRule: 'ownerThenZeros' },
      paymaster: { type: 'verifying' },
    })
    // Code at every address, on the chain app config points at.
    const { client } = await fromAppConfig()
    for (const { address } of Object.values(smart[0]!)) expect(await client.getCode({ address }), address).toMatch(/^0x[0-9a-f]{2,}/)
    // An app with smart accounts off still gets them: they are public addresses.
    const demo = await createAppConfigClient({ appId: 'demo', env: 'sandbox', baseUrls: { appConfig: `${f.sandbox.url}/api/v1` } }).get()
    expect(smartAccountContractsOf(demo.chains[0]!)).toEqual(smart[0])
  })

  test("its address and initCode are the sandbox's account of that owner", async () => {
    const { owner, account, contracts } = await stockAccount()
    const [sandboxAccount] = await f.accountsOf(owner.address)
    expect(account.address).toBe(sandboxAccount!.aaAddress)
    const { factory, factoryData } = await account.getFactoryArgs()
    expect(factory).toBe(contracts.accountFactory.address)
    expect(factoryData).toBe(encodeFunctionData({ abi: factoryAbi, functionName: 'createAccount', args: [owner.address, accountSaltOf(owner.address)] }))
  })

  test('with signUserOperation signing the WalletKitOperation typed data, a self-paid operation is included', async () => {
    const { owner, account, client, contracts } = await stockAccount()
    const signUserOperation: typeof account.signUserOperation = async ({ chainId = client.chain.id, ...userOperation }) => {
      const userOpHash = getUserOperationHash({
        chainId,
        entryPointAddress: account.entryPoint.address,
        entryPointVersion: '0.7',
        userOperation: { ...userOperation, sender: account.address } as Parameters<typeof getUserOperationHash>[0]['userOperation'],
      })
      return owner.signTypedData(operationTypedData({ chainId, account: account.address, userOpHash }))
    }
    const ours = { ...account, signUserOperation }
    await f.anvil('anvil_setBalance', [account.address, '0xde0b6b3a7640000'])
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const bundler = createBundlerClient({ account: ours, client, transport: http(`${f.sandbox.url}/api/v1/bundler/31337`), pollingInterval: 100 })
    const hash = await bundler.sendUserOperation({ calls: [{ to: receiver, value: parseEther('0.25'), data: '0x' }] })
    const receipt = await bundler.waitForUserOperationReceipt({ hash })
    expect(receipt.success).toBe(true)
    expect(await client.getBalance({ address: receiver })).toBe(parseEther('0.25'))
    expect(await client.getCode({ address: account.address })).toBeTruthy()

    // Sponsored by the 'smart' app (ERC-7677 on the same URL): the paymaster that pays is the one app config names.
    const headers = { 'x-app-id': 'smart', 'x-environment': 'development', 'x-client-secret': 'smart-client-secret' }
    const paymaster = createPaymasterClient({ transport: http(`${f.sandbox.url}/api/v1/bundler/31337`, { fetchOptions: { headers } }) })
    const sponsored = createBundlerClient({ account: ours, client, paymaster, transport: http(`${f.sandbox.url}/api/v1/bundler/31337`), pollingInterval: 100 })
    const balance = await client.getBalance({ address: account.address })
    const second = await sponsored.waitForUserOperationReceipt({
      hash: await sponsored.sendUserOperation({ calls: [{ to: receiver, value: 1n, data: '0x' }] }),
    })
    expect([second.success, second.paymaster]).toEqual([true, contracts.paymaster.address])
    expect(await client.getBalance({ address: account.address })).toBe(balance - 1n)
  })

  test('unmodified, its EIP-191 signature of the userOpHash is refused: AA24, and nothing moves', async () => {
    const { account, client } = await stockAccount()
    await f.anvil('anvil_setBalance', [account.address, '0xde0b6b3a7640000'])
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const bundler = createBundlerClient({ account, client, transport: http(`${f.sandbox.url}/api/v1/bundler/31337`), pollingInterval: 100 })
    const sent = await bundler.sendUserOperation({ calls: [{ to: receiver, value: parseEther('0.25'), data: '0x' }] }).then(
      (hash: Hex) => ({ hash }),
      (error: Error) => ({ error: error.message }),
    )
    expect(sent).toMatchObject({ error: expect.stringMatching(/AA24 signature error/) })
    expect(await client.getBalance({ address: receiver })).toBe(0n)
    expect(await client.getCode({ address: account.address })).toBeUndefined()
  })
})
