// Recompiles the sandbox's contracts (sandbox/contracts/*.sol: the demo tokens, Multicall3, the smart account and its factory) with the solc npm package and
// writes sandbox/contracts/artifacts/<Name>.json. The artifacts are committed: the sandbox and its
// tests only read them, nothing is compiled or downloaded at run time. `solady/...` imports (the smart
// account, WalletKitAccount.sol) are read from the installed solady package (node_modules/solady/src).
//   npx tsx scripts/compile-contracts.ts
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { artifactSourceHash, compilerSettings } from '../sandbox/contracts/artifacts.ts'

const require = createRequire(import.meta.url)
const solc = require('solc') as {
  compile(input: string, callbacks?: { import(path: string): { contents: string } | { error: string } }): string
  version(): string
}
const soladySrc = join(dirname(require.resolve('solady/package.json')), 'src')

/** Resolves `solady/<path>` (and Solady's own relative imports, which solc hands back as `solady/...`). */
function findImport(path: string): { contents: string } | { error: string } {
  if (!path.startsWith('solady/')) return { error: `${path}: only solady/... can be imported` }
  try {
    return { contents: readFileSync(join(soladySrc, path.slice('solady/'.length)), 'utf8') }
  } catch {
    return { error: `${path}: not found in ${soladySrc}` }
  }
}

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
    { import: findImport },
  ),
) as {
  errors?: { severity: string; formattedMessage: string; sourceLocation?: { file: string } }[]
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>
}

const problems = output.errors ?? []
// Solady's own deprecation warnings (virtual modifiers, memory-safe-assembly comments) are its to fix: counted, not printed.
const isSoladyWarning = (problem: (typeof problems)[number]) => problem.severity !== 'error' && problem.sourceLocation?.file.startsWith('solady/')
for (const problem of problems) if (!isSoladyWarning(problem)) console[problem.severity === 'error' ? 'error' : 'warn'](problem.formattedMessage)
const soladyWarnings = problems.filter(isSoladyWarning).length
if (soladyWarnings) console.warn(`(${soladyWarnings} warnings in solady's sources not shown)`)
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
