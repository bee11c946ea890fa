import { createWalletClient, getContractAddress, http, parseAbi, parseEther, publicActions, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { RunningChain } from '../infra/anvil/local-chains.ts'
import { multicall3Address, viemChainOf } from './viem-chain.ts'
import { adminClient } from '../infra/anvil/public-accounts.ts'
import { loadArtifact, type ContractName } from './artifacts.ts'

/**
 * anvil's default account 1, used only to deploy. Its nonces 0, 1, 2 give the demo contracts the
 * same addresses on both chains and after every restart, so they can be written down. Its key is
 * public, so it holds nothing: it gets gas money just for the deploys and is emptied right after,
 * and the contracts' only role (minter) is given to the faucet, whose key is the sandbox's own.
 */
const deployerKey: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const deployer = privateKeyToAccount(deployerKey)

const deployed = [
  ['demoToken', 'DemoToken'],
  ['demoNft', 'DemoNft'],
  ['demoMultiToken', 'DemoMultiToken'],
] as const satisfies readonly (readonly [string, ContractName])[]

export type ContractKey = 'multicall3' | (typeof deployed)[number][0]

/** The contracts of one chain, shaped like viem's `chain.contracts`. */
export type DemoContracts = { readonly [key in ContractKey]: { readonly address: Address } }

export const demoContracts: DemoContracts = {
  multicall3: { address: multicall3Address },
  ...(Object.fromEntries(deployed.map(([key], nonce) => [key, { address: getContractAddress({ from: deployer.address, nonce: BigInt(nonce) }) }])) as {
    [key in (typeof deployed)[number][0]]: { address: Address }
  }),
}

/**
 * Makes sure the demo contracts exist on a fresh or restored chain: Multicall3 (stateless) is
 * installed as runtime code at its canonical address, the tokens are deployed by the deployer
 * with `minter` (the faucet) as their only minter. Idempotent: present contracts are left alone.
 */
const minterAbi = parseAbi(['function minter() view returns (address)'])

/** Enough for the three deploys (and a re-deploy each when migrating a minter) at anvil's fees. */
const deployGas = parseEther('1')

/**
 * Makes sure the demo contracts exist on a fresh or restored chain: Multicall3 (stateless) is
 * installed as runtime code at its canonical address, the tokens are deployed by the deployer
 * with `minter` (the faucet) as their only minter. Idempotent: present contracts are left alone,
 * except that a token whose minter is another account (a data folder from when the faucet was
 * anvil's public account 0) gets the runtime code of a copy deployed with `minter`: the minter is
 * immutable, so it lives in the code, and balances (storage) stay as they were.
 */
export async function ensureDemoContracts(chain: RunningChain, minter: Address): Promise<void> {
  const client = createWalletClient({ account: deployer, chain: viemChainOf(chain), transport: http(chain.rpcUrl), pollingInterval: 50 }).extend(publicActions)
  const admin = adminClient(chain)
  if (!(await client.getCode({ address: multicall3Address })))
    await admin.setCode({ address: multicall3Address, bytecode: loadArtifact('Multicall3').deployedBytecode })
  await admin.setBalance({ address: deployer.address, value: deployGas })
  try {
    for (const [index, [key, name]] of deployed.entries()) {
      const address = demoContracts[key].address
      const artifact = loadArtifact(name)
      const deploy = async () => {
        const hash = await client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [minter] })
        const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
        if (!receipt.contractAddress) throw new Error(`Chain ${chain.chainId}: deploying ${name} failed`)
        return receipt.contractAddress
      }
      if (await client.getCode({ address })) {
        const current = await client.readContract({ address, abi: minterAbi, functionName: 'minter' })
        if (current.toLowerCase() === minter.toLowerCase()) continue
        const copy = await deploy()
        await admin.setCode({ address, bytecode: (await client.getCode({ address: copy }))! })
        continue
      }
      const nonce = await client.getTransactionCount({ address: deployer.address })
      if (nonce !== index)
        throw new Error(`Chain ${chain.chainId}: ${name} is missing at ${address} but the deployer's nonce is ${nonce}; start with a fresh data folder`)
      const landed = await deploy()
      if (landed.toLowerCase() !== address.toLowerCase()) throw new Error(`Chain ${chain.chainId}: ${name} landed at ${landed}`)
    }
  } finally {
    await admin.setBalance({ address: deployer.address, value: 0n })
  }
}
