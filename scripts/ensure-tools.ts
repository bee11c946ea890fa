import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { anvilPackageName, findAnvil } from '../sandbox/infra/anvil/anvil-path.ts'

/**
 * Tools that ship as per-platform npm packages (anvil; Biome and knip's parser) cannot sit in
 * package.json: the registry here serves only some platforms' packages (anvil's linux-amd64 one
 * alone), so the lock file would miss the others and `npm ci` refuses it. They are installed after
 * `npm ci`, in one `npm install --no-save` (a second one would prune what the first added, and so
 * does any later `npm install <package>`: run this script again after one).
 */
const installed = (name: string) => existsSync(new URL(`../node_modules/${name}/package.json`, import.meta.url))

const tools = [
  { spec: '@foundry-rs/anvil@1.7.1', present: () => findAnvil() !== undefined, hint: anvilPackageName() },
  { spec: '@biomejs/biome@2.6.8', present: () => installed('@biomejs/biome'), hint: '@biomejs/biome' },
  { spec: 'knip@6.44.2', present: () => installed('knip'), hint: 'knip' },
]

if (tools.some((tool) => !tool.present())) {
  console.log(`Installing ${tools.map((tool) => tool.spec).join(', ')} …`)
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', ...tools.map((tool) => tool.spec)], { stdio: 'inherit' })
  const missing = tools.filter((tool) => !tool.present())
  if (missing.length > 0) {
    console.error(`Not available for ${process.platform}/${process.arch}: ${missing.map((tool) => tool.hint).join(', ')}. Install by hand.`)
    process.exit(1)
  }
}
