import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

// The foundry npm packages name CPUs the Go way (amd64), not the Node way (x64).
const archNames: Record<string, string> = { x64: 'amd64', arm64: 'arm64' }

export function anvilPackageName(platform: string = process.platform, arch: string = process.arch) {
  return `@foundry-rs/anvil-${platform}-${archNames[arch] ?? arch}`
}

/** Absolute path of the anvil binary for this machine, or undefined when it is not installed. */
export function findAnvil(): string | undefined {
  try {
    const path = join(dirname(require.resolve(`${anvilPackageName()}/package.json`)), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
    return existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
}

/** Absolute path of the anvil binary for this machine, or a clear error saying how to install it. */
export function anvilPath(): string {
  const path = findAnvil()
  if (!path) throw new Error(`anvil is not installed (${anvilPackageName()}). Run \`npx tsx scripts/ensure-tools.ts\` first.`)
  return path
}
