import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { buildDeployment, resolveDeployment } from './widget/deployment.ts'

// Where the frame's services live, when not on its own origin (widget/deployment.ts): the
// WALLET_KIT_*_URL variables set at build time. A bad value fails the build, not the frame.
const deployment = buildDeployment(process.env)
resolveDeployment('http://localhost', deployment)

// One config: `vite build` builds the widget app (served by the sandbox under /widget/);
// scripts/build.ts reuses it for the host bundles; Vitest reads the `test` block.
export default defineConfig({
  root: 'widget',
  base: '/widget/',
  plugins: [react()],
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
