import { createPublicClient, createWalletClient, erc20Abi, http, isAddressEqual, parseEventLogs, type Address, type Hex } from 'viem'
import { entryPoint07Abi, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect } from 'vitest'
import { createClient, type Client } from '../../../sdk/index.ts'
import { entryPointAddress, toWalletKitSmartAccount } from '../../contracts/account-abstraction.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import type { SandboxOptions } from '../../server.ts'
import { startTestSandbox, type CreatedWallet, type TestSandbox } from '../../sandbox.fixture.ts'
import { viemChainOf } from '../../contracts/viem-chain.ts'
import { opByHash } from './queries.ts'

/**
 * A sandbox for the smart-account tests (started before, stopped after the file's tests) with the
 * 'smart' app's back-end client (HMAC-signed), an owner signed up in that app, and the helpers the
 * tests share: the chain, balances, the owner's authorisation of an operation, the gas tank.
 */
export function smartAccountSandbox(options: SandboxOptions = {}) {
  const f = {} as { sandbox: TestSandbox; sdk: Client; owner: CreatedWallet }
  beforeAll(async () => {
    f.sandbox = await startTestSandbox({ bundleDelayMs: 50, ...options })
    f.sdk = createClient({ appId: 'smart', env: 'sandbox', clientSecret: 'smart-client-secret', baseUrls: { smartAccount: `${f.sandbox.url}/api/v1` } })
    f.owner = await f.sandbox.signUp('smart-owner@example.com', 'smart')
  }, 120_000)
  afterAll(async () => {
    await f.sandbox?.dispose()
  })
  const chain = () => f.sandbox.chains[0]!
  const publicClient = () => createPublicClient({ chain: viemChainOf(chain()), transport: http(chain().rpcUrl), pollingInterval: 50 })
  const wallet = (path: string, body: object, token = f.owner.walletToken) => f.sandbox.post(`/api/v2/wallet/${path}`, body, token, 'smart')
  /** JSON-RPC straight to the first chain's anvil (its admin methods). */
  const anvil = (method: string, params: unknown[]) =>
    fetch(chain().rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    }).then((r) => r.json())
  return Object.assign(f, {
    chain,
    publicClient,
    wallet,
    ethOf: (address: Address) => publicClient().getBalance({ address }),
    demoOf: (address: Address) =>
      publicClient().readContract({ address: demoContracts.demoToken.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
    accountsOf: async (address: Address) => (await f.sdk.smartAccount.create({ owner: { id: address, provider: 'email' } })).accounts,
    /**
     * The owner authorises the operation built with `hash` as the account validates it (EIP-712
     * WalletKitOperation(userOpHash) in the account's domain, sdk/smart-account/operation.ts): the
     * wallet service signs the operation it stored, by its id (sign-user-operation, what the frame uses).
     */
    ownerSigns: async (hash: string, token = f.owner.walletToken): Promise<Hex> => {
      const op = await opByHash(f.sandbox.store, hash)
      if (!op) throw new Error(`No operation ${hash} was built`)
      const signed = await wallet('sign-user-operation', { userOpId: op.id }, token)
      if (signed.status !== 200) throw new Error(`sign-user-operation: ${JSON.stringify(signed.body)}`)
      return signed.body.data.signature
    },
    accountModelFor: (key: ReturnType<typeof privateKeyToAccount>) => toWalletKitSmartAccount({ client: publicClient(), owner: key }),
    tank: async () => BigInt((await f.sdk.smartAccount.gasTank({ chainId: 31337 })).balance),
    anvil,
    /**
     * Someone else, with their own funded key, includes `op` with `handleOps` through the sandbox's
     * public chain proxy (/rpc), as a front-runner would. Answers the transaction, the beneficiary
     * and the operation's UserOperationEvent (undefined when the bundle holds none).
     */
    includeWithOwnKey: async (op: UserOperation<'0.7'>) => {
      const key = privateKeyToAccount(generatePrivateKey())
      await anvil('anvil_setBalance', [key.address, '0x8ac7230489e80000'])
      const sender = createWalletClient({ account: key, chain: viemChainOf(chain()), transport: http(`${f.sandbox.url}/rpc/31337`) })
      const txHash = await sender.writeContract({
        address: entryPointAddress,
        abi: entryPoint07Abi,
        functionName: 'handleOps',
        args: [[toPackedUserOperation(op)], key.address],
      })
      const receipt = await publicClient().waitForTransactionReceipt({ hash: txHash })
      expect(receipt.status).toBe('success')
      const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs }).filter((log) =>
        isAddressEqual(log.address, entryPointAddress),
      )
      return { txHash, beneficiary: key.address, event: event?.args }
    },
  })
}
