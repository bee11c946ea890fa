import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { fileURLToPath } from 'node:url'
import { buildDeployment, resolveDeployment } from './widget/deployment.ts'

// Where the frame's services live, when not on its own origin (widget/deployment.ts): the
// WALLET_KIT_*_URL variables set at build time. A bad value fails the build, not the frame.
const deployment = buildDeployment(process.env)
resolveDeployment('http://localhost', deployment)

/**
 * The core's own chunks are fetched with the page, not one after the other as each is parsed:
 * `<link rel=modulepreload>` for every chunk the entry imports statically, and for the core the
 * entry starts (widget/frame.ts, imported once the entry has begun the frame's storage and network
 * work) with every chunk it imports statically. The UI's files (widget/ui.tsx, React, their styles)
 * are preloaded too, at low priority: the browser fetches and compiles them while the core waits for
 * storage, and the core runs them only once it has answered the page (frame.ts). At the default
 * priority they held the core's own files and delayed its start; a browser that ignores the hint
 * (fetchpriority) fetches them beside the core's.
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
        const holding = (file: string) => chunks.find((c) => c.moduleIds.some((id) => id.replace(/\\/g, '/').endsWith(file)))
        const entry = holding('/widget/main.ts')
        const core = holding('/widget/frame.ts')
        if (!entry || !core) throw new Error('The frame build has no entry chunk or no core chunk (widget/frame.ts)')
        type Kind = 'script' | 'style'
        /** `file` and every chunk it imports statically, each with its styles: not the entry, nor any file in `known`. */
        const add = (into: Map<string, Kind>, file: string, known?: Map<string, Kind>) => {
          const chunk = chunks.find((c) => c.fileName === file)
          if (!chunk || file === entry.fileName || into.has(file) || known?.has(file)) return
          into.set(file, 'script')
          for (const css of chunk.viteMetadata?.importedCss ?? []) into.set(css, 'style')
          for (const next of chunk.imports) add(into, next, known)
        }
        const first = new Map<string, Kind>()
        for (const file of [...entry.imports, core.fileName]) add(first, file)
        const ui = holding('/widget/ui.tsx')
        if (!ui) throw new Error('The frame build has no UI chunk (widget/ui.tsx)')
        // The UI's files that the core's do not already hold, at low priority.
        const later = new Map<string, Kind>()
        add(later, ui.fileName, first)
        // crossorigin as the loader asks for them, so that its own requests find these in the cache.
        const link = (file: string, kind: Kind, priority?: 'low') => ({
          tag: 'link',
          attrs: {
            ...(kind === 'script' ? { rel: 'modulepreload' } : { rel: 'preload', as: 'style' }),
            crossorigin: '',
            href: `${base}${file}`,
            ...(priority && { fetchpriority: priority }),
          },
          injectTo: 'head' as const,
        })
        return [...[...first].map(([file, kind]) => link(file, kind)), ...[...later].map(([file, kind]) => link(file, kind, 'low'))]
      },
    },
  }
}

/**
 * The core as one file: every module the core (widget/frame.ts) imports statically and the entry
 * does not. Without this group the bundler splits what the core shares with the UI and the secure
 * window into a file per set of sharers (ten small files, each gzipped alone: 4 KB more).
 */
function coreGroup() {
  const imports = new Map<string, readonly string[]>()
  const reach = (start: string) => {
    const seen = new Set<string>()
    const visit = (id: string) => {
      if (seen.has(id)) return
      seen.add(id)
      for (const next of imports.get(id) ?? []) visit(next)
    }
    visit(start)
    return seen
  }
  const at = (file: string) => fileURLToPath(new URL(file, import.meta.url))
  let members: Set<string> | undefined
  let entryMembers: Set<string> | undefined
  const entryReach = () => (entryMembers ??= reach(at('./widget/main.ts')))
  const plugin: Plugin = {
    name: 'wallet-kit-core-graph',
    apply: 'build',
    // The graph is whole once the build has read every module (the chunks are made after).
    buildEnd() {
      for (const id of this.getModuleIds()) imports.set(id, this.getModuleInfo(id)?.importedIds ?? [])
    },
  }
  const test = (id: string) => {
    members ??= new Set([...reach(at('./widget/frame.ts'))].filter((m) => !entryReach().has(m)))
    return members.has(id)
  }
  const entryTest = (id: string) => entryReach().has(id) || /preload-helper|rolldown[\\/]runtime|[\\/]sdk[\\/]errors\.ts$/.test(id)
  return { plugin, group: { name: 'frame', test, includeDependenciesRecursively: false }, entry: { name: 'loader', test: entryTest, priority: 1 } }
}
const core = coreGroup()

// One config: `vite build` builds the widget app (served by the sandbox under /widget/);
// scripts/build.ts reuses it for the host bundles; Vitest reads the `test` block.
export default defineConfig({
  root: 'widget',
  base: '/widget/',
  plugins: [react(), preloadCore(), core.plugin],
  define: { __WALLET_KIT_DEPLOYMENT__: JSON.stringify(deployment) },
  build: {
    outDir: '../dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    // The WalletConnect chunk (sign-client) is large and lazy: loaded for the QR page only.
    chunkSizeWarningLimit: 700,
    // Every browser the kit supports has <link rel=modulepreload>: no polyfill in the core.
    modulePreload: false,
    // The styles are applied with the UI's code (the UI imports them; the loader waits for them before
    // the UI runs), not as a stylesheet in the page: one there holds the core's script until it has
    // arrived, and the core shows nothing. The page only preloads them, at low priority (preloadCore).
    cssCodeSplit: true,
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
            core.entry,
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]|[\\/]widget[\\/](use-timed|i18n|i18n-en|context)\.ts$/ },
            core.group,
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
