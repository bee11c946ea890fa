import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * anvil ships as per-platform npm packages, and only some of them resolve on the registry here,
 * so it cannot sit in package.json without breaking `npm ci` (TOOLCHAIN.md). Install it after.
 */
const version = '1.7.1'
const arch = process.arch === 'x64' ? 'amd64' : process.arch
const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`

function binary(): string | undefined {
  try {
    const dir = dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`))
    const bin = join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
    return existsSync(bin) ? bin : undefined
  } catch {
    return undefined
  }
}

if (!binary()) {
  console.log(`Installing anvil ${version} (${pkg}) …`)
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', `@foundry-rs/anvil@${version}`], {
    stdio: 'inherit',
  })
  if (!binary()) {
    console.error(`anvil is not available for ${process.platform}/${process.arch}: install ${pkg} by hand.`)
    process.exit(1)
  }
}
