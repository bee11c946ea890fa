import { build } from 'vite'

/**
 * Three outputs:
 * - dist/widget: the React app the provider serves inside the iframe (vite.config.ts);
 * - dist/kit/kit.js: the script-tag bundle a host pastes (IIFE, no React);
 * - dist/lib: the npm entries (`wallet-kit`, `wallet-kit/sdk`) as ESM, dependencies external.
 */
const quiet = process.argv.includes('--quiet') ? 'warn' : 'info'

await build({ configFile: 'vite.config.ts', logLevel: quiet })

await build({
  configFile: false,
  logLevel: quiet,
  build: {
    outDir: 'dist/kit',
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: 'host-sdk/script.ts', formats: ['iife'], name: 'WalletKitScript', fileName: () => 'kit.js' },
  },
})

await build({
  configFile: false,
  logLevel: quiet,
  build: {
    outDir: 'dist/lib',
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: { index: 'host-sdk/index.ts', sdk: 'sdk/index.ts' }, formats: ['es'] },
    rollupOptions: { external: [/^penpal/, /^ox/, /^viem/, /^react/] },
  },
})
