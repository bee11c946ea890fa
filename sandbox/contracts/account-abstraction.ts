import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  concat,
  createWalletClient,
  encodeAbiParameters,
  getContractAddress,
  http,
  pad,
  parseAbi,
  parseEther,
  publicActions,
  zeroHash,
  type Address,
  type Hex,
} from 'viem'
import { entryPoint07Abi, entryPoint07Address, getUserOperationHash, toSoladySmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount, type LocalAccount } from 'viem/accounts'
import type { SmartAccountContracts } from '../../sdk/app-config.ts'
import { operationTypedData, smartAccountAddressOf } from '../../sdk/smart-account/operation.ts'
import { adminClient } from '../infra/anvil/public-accounts.ts'
import type { RunningChain } from '../infra/anvil/local-chains.ts'
import { viemChainOf } from './viem-chain.ts'
import { loadArtifact } from './artifacts.ts'

export * from './paymaster.ts'

/**
 * ERC-4337 on the local chains: the canonical EntryPoint v0.7, our Solady-based smart account
 * (WalletKitAccount.sol) with its factory, and eth-infinitism's VerifyingPaymaster. All are
 * deployed through the CREATE2 deployer anvil ships, so their addresses follow from the code alone:
 * the same on both chains, after every restart, and computable here without a chain.
 */
export const entryPointAddress: Address = entryPoint07Address
export const entryPointAbi = entryPoint07Abi

/** Arachnid's deterministic deployment proxy: calldata is salt (32 bytes) ++ init code. anvil has it at genesis (its code, below, is put back if missing). */
export const create2DeployerAddress: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'
const create2DeployerCode: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3'

/** The salt EntryPoint v0.7 was deployed with on public chains. */
const entryPointSalt: Hex = '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3'
/** Our contracts' salt; the paymaster's address also depends on its signer (a constructor argument). */
const salt: Hex = zeroHash

const create2 = (bytecode: Hex, withSalt: Hex = salt) => getContractAddress({ opcode: 'CREATE2', from: create2DeployerAddress, salt: withSalt, bytecode })

const accountInitCode = loadArtifact('WalletKitAccount').bytecode
export const accountImplementationAddress: Address = create2(accountInitCode)
/**
 * Implementations of WalletKitAccount that earlier sandboxes deployed. 0xdD2b… took the owner's
 * EIP-191 signature of the userOpHash, which any site can get with personal_sign (issue 21). A chain
 * restored from a data folder may still have accounts (proxies) pointing at one: its code is
 * replaced by the current implementation's, so those accounts keep their address and balance and
 * validate operations as WalletKitAccount.sol does now.
 */
export const retiredAccountImplementations: readonly Address[] = ['0xdD2b61308F82Ac1D13fd8134a25A97E39180B6fF']
const factoryInitCode = concat([loadArtifact('WalletKitAccountFactory').bytecode, encodeAbiParameters([{ type: 'address' }], [accountImplementationAddress])])
export const accountFactoryAddress: Address = create2(factoryInitCode)

/** WalletKitAccountFactory: `createAccount(owner, salt)` is the one viem's toSoladySmartAccount calls. */
export const accountFactoryAbi = parseAbi([
  'function createAccount(address owner, bytes32 salt) payable returns (address)',
  'function createAccount(bytes32 ownSalt) payable returns (address)',
  'function getAddress(bytes32 ownSalt) view returns (address)',
  'function implementation() view returns (address)',
  'function initCodeHash() view returns (bytes32)',
  'error SaltDoesNotStartWithOwner()',
])

/**
 * The factory salt of `owner`'s account: the owner's 20 bytes then 12 zero bytes. The factory takes
 * the owner from the salt's first 20 bytes, so each owner key has its own account address.
 */
export function smartAccountSalt(owner: Address): Hex {
  return pad(owner.toLowerCase() as Hex, { dir: 'right', size: 32 })
}

/**
 * viem's model of a WalletKitAccount owned by a local key: toSoladySmartAccount (our factory, the
 * owner's salt) whose operations the owner signs as the account validates them, EIP-712
 * `WalletKitOperation(bytes32 userOpHash)` in the account's own domain (sdk/smart-account/operation.ts),
 * not Solady's default EIP-191 signature of the hash. Messages and typed data stay ERC-7739.
 */
export async function toWalletKitSmartAccount(parameters: { client: Parameters<typeof toSoladySmartAccount>[0]['client']; owner: LocalAccount }) {
  const { client, owner } = parameters
  const account = await toSoladySmartAccount({ client, owner, factoryAddress: accountFactoryAddress, salt: smartAccountSalt(owner.address) })
  const signUserOperation: typeof account.signUserOperation = async ({ chainId = client.chain!.id, ...userOperation }) => {
    const userOpHash = getUserOperationHash({
      chainId,
      entryPointAddress,
      entryPointVersion: '0.7',
      userOperation: { ...userOperation, sender: account.address } as Parameters<typeof getUserOperationHash>[0]['userOperation'],
    })
    return owner.signTypedData(operationTypedData({ chainId, account: account.address, userOpHash }))
  }
  return { ...account, signUserOperation }
}

/**
 * What app config lists of a local chain's smart-account contracts (sdk ChainContracts): enough for
 * viem's toSoladySmartAccount to find an owner's account with nothing else known.
 */
export const smartAccountContracts = (paymaster: Address) =>
  ({
    entryPoint: { address: entryPointAddress, version: '0.7' },
    accountFactory: { address: accountFactoryAddress, accountType: 'solady', saltRule: 'ownerThenZeros' },
    accountImplementation: { address: accountImplementationAddress },
    paymaster: { address: paymaster, type: 'verifying' },
  }) as const satisfies SmartAccountContracts

/** Where `owner`'s account is (or will be) on every local chain, computed without a chain (the factory's initCodeHash is pinned by a test). */
export const accountAddressOf = (owner: Address): Address => smartAccountAddressOf(owner)

const require = createRequire(import.meta.url)
/** eth-infinitism's compiled artifacts, read from the installed package (0.7.0, pinned in package.json). */
const infinitismArtifacts = {
  EntryPoint: () => require.resolve('@account-abstraction/contracts/artifacts/EntryPoint.json'),
  VerifyingPaymaster: () => require.resolve('@account-abstraction/contracts/artifacts/VerifyingPaymaster.json'),
  SimpleAccountFactory: () => require.resolve('@account-abstraction/contracts/artifacts/SimpleAccountFactory.json'),
}
const infinitismBytecodes = new Map<keyof typeof infinitismArtifacts, Hex>()
function infinitismBytecode(name: keyof typeof infinitismArtifacts): Hex {
  let bytecode = infinitismBytecodes.get(name)
  if (!bytecode) {
    bytecode = (JSON.parse(readFileSync(infinitismArtifacts[name](), 'utf8')) as { bytecode: Hex }).bytecode
    infinitismBytecodes.set(name, bytecode)
  }
  return bytecode
}

const paymasterInitCode = (verifyingSigner: Address) =>
  concat([infinitismBytecode('VerifyingPaymaster'), encodeAbiParameters([{ type: 'address' }, { type: 'address' }], [entryPointAddress, verifyingSigner])])

/**
 * Where the VerifyingPaymaster that trusts `verifyingSigner` lives. Its owner (BasePaymaster is
 * Ownable) is the CREATE2 deployer, so nobody can withdraw its deposit or stake: fine for play money.
 */
export function paymasterAddressFor(verifyingSigner: Address): Address {
  return create2(paymasterInitCode(verifyingSigner))
}

/**
 * eth-infinitism's SimpleAccountFactory for EntryPoint v0.7 where public chains have it, and where
 * stock clients (permissionless's toSimpleSmartAccount) look for it: the package's own init code (its
 * constructor argument the EntryPoint) through the CREATE2 deployer with salt zero lands exactly there,
 * so it is deployed, not patched in. Its constructor makes the SimpleAccount implementation (the
 * factory's first CREATE, nonce 1).
 */
export const simpleAccountFactoryAddress: Address = '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985'
export const simpleAccountImplementationAddress: Address = getContractAddress({ from: simpleAccountFactoryAddress, nonce: 1n })
const simpleAccountFactoryInitCode = () => concat([infinitismBytecode('SimpleAccountFactory'), encodeAbiParameters([{ type: 'address' }], [entryPointAddress])])

/** Pays for the deploys (3.65M gas for the EntryPoint, about 9M for all five) and nothing else: the payer's key is thrown away. */
const gasMoney = parseEther('1')

/**
 * Makes sure a chain has the EntryPoint v0.7, the account implementation and factory, the canonical
 * SimpleAccountFactory, and the VerifyingPaymaster of `paymasterSigner` with at least `paymasterDeposit` wei deposited in the
 * EntryPoint. Idempotent: present contracts are left alone and a sufficient deposit is not touched,
 * so a second call sends no transaction. The transactions come from a fresh key, funded with
 * anvil_setBalance and emptied afterwards (deploy.ts's deployer must keep its nonces).
 */
export async function ensureAccountAbstraction(
  chain: RunningChain,
  options: { paymasterSigner: Address; paymasterDeposit: bigint },
): Promise<{ paymaster: Address }> {
  const entryPointInitCode = infinitismBytecode('EntryPoint')
  const landing = create2(entryPointInitCode, entryPointSalt)
  if (landing !== entryPointAddress)
    throw new Error(
      `The EntryPoint of @account-abstraction/contracts would land at ${landing}, not at the canonical v0.7 address ${entryPointAddress}: install version 0.7.0`,
    )
  const simpleFactoryInitCode = simpleAccountFactoryInitCode()
  if (create2(simpleFactoryInitCode) !== simpleAccountFactoryAddress)
    throw new Error(
      `The SimpleAccountFactory of @account-abstraction/contracts would not land at its canonical address ${simpleAccountFactoryAddress}: install version 0.7.0`,
    )
  const paymaster = paymasterAddressFor(options.paymasterSigner)
  const admin = adminClient(chain)
  if (!(await admin.getCode({ address: create2DeployerAddress }))) await admin.setCode({ address: create2DeployerAddress, bytecode: create2DeployerCode })

  const contracts = [
    { name: 'EntryPoint v0.7', address: entryPointAddress, salt: entryPointSalt, initCode: entryPointInitCode },
    { name: 'WalletKitAccount', address: accountImplementationAddress, salt, initCode: accountInitCode },
    { name: 'WalletKitAccountFactory', address: accountFactoryAddress, salt, initCode: factoryInitCode },
    { name: 'VerifyingPaymaster', address: paymaster, salt, initCode: paymasterInitCode(options.paymasterSigner) },
    { name: 'SimpleAccountFactory v0.7', address: simpleAccountFactoryAddress, salt, initCode: simpleFactoryInitCode },
  ]
  const missing = []
  for (const contract of contracts) if (!(await admin.getCode({ address: contract.address }))) missing.push(contract)
  const deposit = missing[0]?.address === entryPointAddress ? 0n : await depositOf(chain, paymaster)
  const topUp = options.paymasterDeposit > deposit ? options.paymasterDeposit - deposit : 0n
  if (missing.length === 0 && topUp === 0n) {
    await retireImplementations(chain)
    return { paymaster }
  }

  const payer = privateKeyToAccount(generatePrivateKey())
  const client = createWalletClient({ account: payer, chain: viemChainOf(chain), transport: http(chain.rpcUrl), pollingInterval: 50 }).extend(publicActions)
  await admin.setBalance({ address: payer.address, value: gasMoney + topUp })
  try {
    for (const contract of missing) {
      const hash = await client.sendTransaction({ to: create2DeployerAddress, data: concat([contract.salt, contract.initCode]) })
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
      if (receipt.status !== 'success' || !(await client.getCode({ address: contract.address })))
        throw new Error(`Chain ${chain.chainId}: deploying ${contract.name} at ${contract.address} failed`)
    }
    if (topUp > 0n) {
      const hash = await client.writeContract({ address: entryPointAddress, abi: entryPointAbi, functionName: 'depositTo', args: [paymaster], value: topUp })
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
      if (receipt.status !== 'success') throw new Error(`Chain ${chain.chainId}: depositing for the paymaster ${paymaster} failed`)
    }
  } finally {
    await admin.setBalance({ address: payer.address, value: 0n })
  }
  await retireImplementations(chain)
  return { paymaster }
}

/** Gives each retired implementation on `chain` the current implementation's code (anvil_setCode; no transaction). */
async function retireImplementations(chain: RunningChain): Promise<void> {
  const admin = adminClient(chain)
  const current = await admin.getCode({ address: accountImplementationAddress })
  if (!current) throw new Error(`Chain ${chain.chainId}: no WalletKitAccount at ${accountImplementationAddress}`)
  for (const address of retiredAccountImplementations) {
    const code = await admin.getCode({ address })
    if (code && code !== current) await admin.setCode({ address, bytecode: current })
  }
}

/** What `account` (a paymaster, or an account paying for itself) has deposited in the EntryPoint. */
export async function depositOf(chain: RunningChain, account: Address): Promise<bigint> {
  return adminClient(chain).readContract({ address: entryPointAddress, abi: entryPointAbi, functionName: 'balanceOf', args: [account] })
}
