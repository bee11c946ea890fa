import { execFileSync } from 'node:child_process'
import { anvilPackageName, findAnvil } from '../sandbox/infra/anvil/anvil-path.ts'

/**
 * anvil ships as per-platform npm packages, and only some of them resolve on the registry here,
 * so it cannot sit in package.json without breaking `npm ci` (TOOLCHAIN.md). Install it after.
 */
const version = '1.7.1'
const pkg = anvilPackageName()

if (!findAnvil()) {
  console.log(`Installing anvil ${version} (${pkg}) …`)
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', `@foundry-rs/anvil@${version}`], {
    stdio: 'inherit',
  })
  if (!findAnvil()) {
    console.error(`anvil is not available for ${process.platform}/${process.arch}: install ${pkg} by hand.`)
    process.exit(1)
  }
}
