import react from '@vitejs/plugin-react'
import vue from '@vitejs/plugin-vue'
import type { InlineConfig } from 'vite'
import { elementRenderer, root } from './bundles.ts'

/** Example pages that import `wallet-kit` as an npm user would, bundled into dist/examples/<name>/. */
export const bundledExamples = ['demo', 'react', 'ethers', 'viem', 'wagmi', 'web3', 'vue'] as const

export const examplesConfig = (): InlineConfig => ({
  configFile: false,
  root: `${root}examples`,
  base: '/',
  plugins: [
    react(),
    // The Vue example's <wallet-kit> is a custom element, not a Vue component to resolve.
    vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'wallet-kit' } } }),
    // `wallet-kit/element` renders with mini-react, as in the package (dist/lib): no React in a Vue page.
    elementRenderer(),
  ],
  resolve: {
    alias: [
      { find: /^wallet-kit\/react$/, replacement: `${root}host-sdk/react/index.ts` },
      { find: /^wallet-kit\/element$/, replacement: `${root}host-sdk/element.ts` },
      { find: /^wallet-kit$/, replacement: `${root}host-sdk/index.ts` },
    ],
  },
  build: {
    outDir: `${root}dist/examples`,
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    rollupOptions: { input: Object.fromEntries(bundledExamples.map((name) => [name, `${root}examples/${name}/index.html`])) },
  },
})

/** The sandbox's mobile wallet page (sandbox/emulators/wallet/page/), served by the sandbox under /dev/wallet/ from dist/dev-wallet/. */
export const devWalletConfig = (): InlineConfig => ({
  configFile: false,
  root: `${root}sandbox/emulators/wallet/page`,
  base: '/dev/wallet/',
  build: {
    outDir: `${root}dist/dev-wallet`,
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 4000,
  },
})
