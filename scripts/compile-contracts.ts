// Recompiles the sandbox's demo contracts (sandbox/contracts/*.sol) with the solc npm package and
// writes sandbox/contracts/artifacts/<Name>.json. The artifacts are committed: the sandbox and its
// tests only read them, nothing is compiled or downloaded at run time.
//   npx tsx scripts/compile-contracts.ts
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { artifactSourceHash, compilerSettings } from '../sandbox/contracts/artifacts.ts'

const require = createRequire(import.meta.url)
const solc = require('solc') as { compile(input: string): string; version(): string }

const dir = fileURLToPath(new URL('../sandbox/contracts/', import.meta.url))
const outDir = join(dir, 'artifacts')
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.sol'))
  .sort()
const sources = Object.fromEntries(files.map((name) => [name, { content: readFileSync(join(dir, name), 'utf8') }]))

const output = JSON.parse(
  solc.compile(
    JSON.stringify({
      language: 'Solidity',
      sources,
      settings: { ...compilerSettings, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } } },
    }),
  ),
) as {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>
}

const problems = output.errors ?? []
for (const problem of problems) console[problem.severity === 'error' ? 'error' : 'warn'](problem.formattedMessage)
if (problems.some((problem) => problem.severity === 'error')) process.exit(1)

mkdirSync(outDir, { recursive: true })
for (const file of files) {
  for (const [contractName, contract] of Object.entries(output.contracts[file] ?? {})) {
    // Interfaces have no code to deploy.
    if (contract.evm.bytecode.object === '') continue
    const artifact = {
      contractName,
      sourceName: file,
      compiler: `solc ${solc.version()}`,
      settings: compilerSettings,
      sourceHash: artifactSourceHash(sources[file]!.content),
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
      deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
    }
    writeFileSync(join(outDir, `${contractName}.json`), `${JSON.stringify(artifact, null, 2)}\n`)
    console.log(`${contractName}: ${(contract.evm.deployedBytecode.object.length / 2).toLocaleString()} bytes`)
  }
}
