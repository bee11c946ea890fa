import { createPublicClient, erc20Abi, http, type Address, type Hex } from 'viem'
import type { privateKeyToAccount } from 'viem/accounts'
import { toSoladySmartAccount } from 'viem/account-abstraction'
import { afterAll, beforeAll } from 'vitest'
import { createClient, type Client } from '../../../sdk/index.ts'
import { accountFactoryAddress, smartAccountSalt } from '../../contracts/account-abstraction.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import { startTestSandbox, type CreatedWallet, type TestSandbox } from '../../test-sandbox.ts'
import { viemChainOf } from '../chain/networks.ts'

/**
 * A sandbox for the smart-account tests (started before, stopped after the file's tests) with the
 * 'smart' app's back-end client (HMAC-signed), an owner signed up in that app, and the helpers the
 * tests share: the chain, balances, the owner's signature of an operation hash, the gas tank.
 */
export function smartAccountSandbox() {
  const f = {} as { sandbox: TestSandbox; sdk: Client; owner: CreatedWallet }
  beforeAll(async () => {
    f.sandbox = await startTestSandbox({ bundleDelayMs: 50 })
    f.sdk = createClient({ appId: 'smart', env: 'sandbox', clientSecret: 'smart-client-secret', baseUrls: { smartAccount: `${f.sandbox.url}/api/v1` } })
    f.owner = await f.sandbox.signUp('smart-owner@example.com', 'smart')
  }, 120_000)
  afterAll(async () => {
    await f.sandbox?.dispose()
  })
  const chain = () => f.sandbox.chains[0]!
  const publicClient = () => createPublicClient({ chain: viemChainOf(chain()), transport: http(chain().rpcUrl), pollingInterval: 50 })
  const wallet = (path: string, body: object, token = f.owner.walletToken) => f.sandbox.post(`/api/v2/wallet/${path}`, body, token, 'smart')
  return Object.assign(f, {
    chain,
    publicClient,
    wallet,
    ethOf: (address: Address) => publicClient().getBalance({ address }),
    demoOf: (address: Address) =>
      publicClient().readContract({ address: demoContracts.demoToken.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
    accountsOf: async (address: Address) => (await f.sdk.smartAccount.create({ owner: { id: address, provider: 'email' } })).accounts,
    /** The owner signs an operation hash as the account validates it: EIP-191 over the 32 bytes. */
    ownerSigns: async (hash: string, token = f.owner.walletToken): Promise<Hex> =>
      (await wallet('sign-message', { network: 'local-1', message: hash }, token)).body.data.signature,
    accountModelFor: (key: ReturnType<typeof privateKeyToAccount>) =>
      toSoladySmartAccount({ client: publicClient(), owner: key, factoryAddress: accountFactoryAddress, salt: smartAccountSalt(key.address) }),
    tank: async () => BigInt((await f.sdk.smartAccount.gasTank({ chainId: 31337 })).balance),
    /** JSON-RPC straight to the first chain's anvil (its admin methods). */
    anvil: (method: string, params: unknown[]) =>
      fetch(chain().rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }).then((r) => r.json()),
  })
}
