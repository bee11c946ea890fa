import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { frameSizes } from './frame/sizes.ts'

/**
 * The frame comparison's (scripts/bench/frame/) helper process, started in the tree it measures
 * (its working directory): that tree's own code serves its own dist/ and measures its own bundles.
 *   npx tsx <this file> serve   prints {"url": …} once that tree's sandbox listens (its own data
 *                               folder, free ports), and stops it when stdin closes or on SIGTERM;
 *   npx tsx <this file> sizes   prints that tree's frame sizes as one JSON line.
 */
const tree = process.cwd()
const mode = process.argv[2]

if (mode === 'sizes') {
  // Vite's build is quiet about its progress here but not about warnings: those go to stderr.
  const bundles = (await import(join(tree, 'scripts', 'bundles.ts'))) as Record<string, unknown>
  console.log(JSON.stringify(await frameSizes(bundles)))
  process.exit(0)
} else if (mode === 'serve') {
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-kit-bench-data-'))
  const { createSandbox } = (await import(join(tree, 'sandbox', 'server.ts'))) as typeof import('../../sandbox/server.ts')
  const sandbox = await createSandbox({ port: 0, anvilPort: 0, dataDir })
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await sandbox.close()
    rmSync(dataDir, { recursive: true, force: true })
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop())
  process.stdin.on('end', () => void stop())
  process.stdin.resume()
  console.log(JSON.stringify({ url: sandbox.url }))
} else {
  console.error('usage: npx tsx scripts/bench/in-tree.ts serve|sizes (in the tree to measure)')
  process.exit(2)
}
