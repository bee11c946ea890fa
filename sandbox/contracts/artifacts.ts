import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Abi, Hex } from 'viem'

/** How scripts/compile-contracts.ts compiles; cancun keeps the bytecode valid on anvil's default hardfork. */
export const compilerSettings = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' } as const

export type Artifact = {
  contractName: string
  sourceName: string
  compiler: string
  sourceHash: string
  abi: Abi
  bytecode: Hex
  deployedBytecode: Hex
}

export const contractNames = ['DemoToken', 'DemoNft', 'DemoMultiToken', 'Multicall3', 'WalletKitAccount', 'WalletKitAccountFactory'] as const
export type ContractName = (typeof contractNames)[number]

/** sha256 of a .sol file, recorded in its artifact so a test can tell a stale artifact from its source. */
export function artifactSourceHash(source: string): string {
  return createHash('sha256').update(source).digest('hex')
}

export function loadArtifact(name: ContractName): Artifact {
  return JSON.parse(readFileSync(new URL(`./artifacts/${name}.json`, import.meta.url), 'utf8')) as Artifact
}
