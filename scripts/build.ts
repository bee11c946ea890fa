import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { build } from 'vite'
import { devWalletConfig, examplesConfig } from './examples-build.ts'
import { kitConfig, libConfig } from './bundles.ts'

/**
 * Four outputs:
 * - dist/widget: the React app the provider serves inside the iframe (vite.config.ts). Its services
 *   are on its own origin unless WALLET_KIT_*_URL name others (widget/deployment.ts, README.md);
 * - dist/kit/kit.js: the script-tag bundle a host pastes (IIFE, no React: the element renders
 *   with host-sdk/element/mini-react.ts; see scripts/bundles.ts);
 * - dist/lib: the npm entries (`wallet-kit`, `wallet-kit/element`, `wallet-kit/react`,
 *   `wallet-kit/sdk`) as ESM, dependencies external; dist/types: their declarations
 *   (tsconfig.types.json);
 * - dist/examples: the example host pages that need bundling (React, Vue, ethers, viem, wagmi, web3).
 *   `--no-examples` skips them;
 * - dist/dev-wallet: the sandbox's mobile wallet page (/dev/wallet, WalletKit).
 */
const logLevel = process.argv.includes('--quiet') ? 'warn' : 'info'

await build({ configFile: 'vite.config.ts', logLevel })
await build({ ...kitConfig({ write: true }), logLevel })
await build({ ...libConfig(), logLevel })
rmSync(new URL('../dist/types', import.meta.url), { recursive: true, force: true })
execFileSync('npx', ['tsc', '-p', 'tsconfig.types.json'], { stdio: 'inherit' })
await build({ ...devWalletConfig(), logLevel })
if (!process.argv.includes('--no-examples')) await build({ ...examplesConfig(), logLevel })
