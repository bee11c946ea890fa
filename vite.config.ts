import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { buildDeployment, resolveDeployment } from './widget/deployment.ts'

// Where the frame's services live, when not on its own origin (widget/deployment.ts): the
// WALLET_KIT_*_URL variables set at build time. A bad value fails the build, not the frame.
const deployment = buildDeployment(process.env)
resolveDeployment('http://localhost', deployment)

/**
 * The core's own chunks are fetched with the page, not one after the other as each is parsed:
 * `<link rel=modulepreload>` for every chunk the entry imports statically. The UI (React, 225 KB)
 * is left to the core's own import: preloading it with the page delayed the core's start.
 */
function preloadCore(): Plugin {
  let base = '/'
  return {
    name: 'wallet-kit-preload-core',
    apply: 'build',
    configResolved(config) {
      base = config.base
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk')
        const entry = chunks.find((c) => c.isEntry)
        if (!entry) throw new Error('The frame build has no entry chunk')
        return entry.imports.map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: '', href: `${base}${file}` },
          injectTo: 'head' as const,
        }))
      },
    },
  }
}

// One config: `vite build` builds the widget app (served by the sandbox under /widget/);
// scripts/build.ts reuses it for the host bundles; Vitest reads the `test` block.
export default defineConfig({
  root: 'widget',
  base: '/widget/',
  plugins: [react(), preloadCore()],
  define: { __WALLET_KIT_DEPLOYMENT__: JSON.stringify(deployment) },
  build: {
    outDir: '../dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    // The WalletConnect chunk (sign-client) is large and lazy: loaded for the QR page only.
    chunkSizeWarningLimit: 700,
    // Every browser the kit supports has <link rel=modulepreload>: no polyfill in the core.
    modulePreload: false,
    cssCodeSplit: false,
    rollupOptions: {
      // ox's Provider module imports eventemitter3 (a CommonJS module the bundler cannot prove
      // pure) for an emitter the frame never creates: without this, 5 KB of it ships in the first route.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]node_modules[\\/]eventemitter3[\\/]/.test(id) },
      output: {
        // React and the small modules every screen shares load as one file with the UI, not as
        // four (each file gzipped alone costs its own header and dictionary).
        codeSplitting: {
          groups: [
            // The loader of lazy chunks belongs to the core, which loads them.
            { name: 'loader', test: /preload-helper|rolldown[\\/]runtime|[\\/]sdk[\\/]errors\.ts$/, priority: 1 },
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]|[\\/]widget[\\/](use-store|use-timed|i18n|i18n-en|context)\.ts$/ },
          ],
        },
      },
    },
  },
  test: {
    root: '.',
    include: ['{bridge,host-sdk,sdk,widget,sandbox,examples,scripts}/**/*.test.{ts,tsx}'],
    exclude: ['scripts/pack-install.test.ts', '**/node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
