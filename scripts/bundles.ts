import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type InlineConfig, type Plugin } from 'vite'

/**
 * The host bundles, shared by scripts/build.ts (writes dist/), scripts/bench-size.ts and
 * host-sdk/size.test.ts (build in memory and measure). One place, so the size that is tested is
 * the size that ships.
 */
export const root = fileURLToPath(new URL('..', import.meta.url))
const at = (path: string) => `${root}${path}`

export const miniReact = at('host-sdk/element/mini-react.ts')

/**
 * The element and @r2wc/react-to-web-component are written against React's API; in the kit they
 * render with mini-react. Only their imports are redirected: the React wrapper keeps real React.
 * `renderer` picks what they get instead, to measure the alternatives (README.md).
 */
export type Renderer = 'mini' | 'preact' | 'preact-compat' | 'react'

const rendererModules: Record<Exclude<Renderer, 'react'>, Record<string, string>> = {
  mini: { react: miniReact, 'react/jsx-runtime': miniReact, 'react-dom/client': miniReact },
  'preact-compat': { react: 'preact/compat', 'react/jsx-runtime': 'preact/jsx-runtime', 'react-dom/client': 'preact/compat/client' },
  preact: { react: at('scripts/bench/preact-react.ts'), 'react/jsx-runtime': 'preact/jsx-runtime', 'react-dom/client': at('scripts/bench/preact-root.ts') },
}

const elementImporter = (importer: string | undefined) => !!importer && /[\\/](host-sdk[\\/]element|@r2wc)[\\/]/.test(importer)

export function elementRenderer(renderer: Renderer = 'mini'): Plugin {
  return {
    name: 'wallet-kit-element-renderer',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (renderer === 'react' || !importer) return null
      const target = rendererModules[renderer][source]
      if (!target || !elementImporter(importer)) return null
      return target.startsWith('/') ? target : (await this.resolve(target, at('host-sdk/element/define.ts'), { ...options, skipSelf: true }))?.id
    },
  }
}

/** Production JSX whatever NODE_ENV says (Vitest sets "test", which would pick jsx-dev-runtime). */
const oxc = { jsx: { runtime: 'automatic', development: false } } as const

type Out = { fileName: string; code: string }

async function bundle(config: InlineConfig): Promise<Out[]> {
  const result = await build({ configFile: false, logLevel: 'silent', ...config })
  const outputs = (Array.isArray(result) ? result : [result]) as { output: ({ type: string } & Out)[] }[]
  return outputs.flatMap((o) => o.output.filter((x) => x.type === 'chunk'))
}

/** /kit.js: one self-contained IIFE (provider, element and its renderer). */
export const kitConfig = (options: { write?: boolean; renderer?: Renderer; minify?: boolean } = {}): InlineConfig => ({
  // Not the wallet frame's config (vite.config.ts): its chunking does not apply to one IIFE.
  configFile: false,
  plugins: [elementRenderer(options.renderer)],
  oxc,
  define: { 'process.env.NODE_ENV': '"production"' },
  build: {
    write: options.write ?? false,
    outDir: at('dist/kit'),
    emptyOutDir: true,
    target: 'es2022',
    minify: options.minify ?? true,
    lib: { entry: at('host-sdk/script.ts'), formats: ['iife'], name: 'WalletKitScript', fileName: () => 'kit.js' },
  },
})

/**
 * The npm entries as a user's bundler would ship them: everything bundled, minified, ESM. (Not
 * Vite's library mode: it leaves ESM output unminified so that it can be tree-shaken later.)
 */
export const entryConfig = (entry: string, external: RegExp[] = []): InlineConfig => ({
  plugins: [elementRenderer()],
  oxc,
  define: { 'process.env.NODE_ENV': '"production"' },
  build: {
    write: false,
    target: 'es2022',
    minify: true,
    modulePreload: false,
    rollupOptions: {
      input: at(entry),
      external,
      preserveEntrySignatures: 'strict',
      output: { format: 'es', entryFileNames: 'out.js', codeSplitting: false },
    },
  },
})

/** The npm package (dist/lib): our code only, dependencies left to the user's bundler. */
export const libConfig = (write = true): InlineConfig => ({
  // Not the wallet frame's config (vite.config.ts): its root, plugins and chunk groups are the frame's.
  configFile: false,
  plugins: [elementRenderer()],
  oxc,
  build: {
    write,
    outDir: at('dist/lib'),
    emptyOutDir: true,
    target: 'es2022',
    lib: {
      entry: { index: at('host-sdk/index.ts'), element: at('host-sdk/element.ts'), react: at('host-sdk/react/index.ts'), sdk: at('sdk/index.ts') },
      formats: ['es'],
    },
    // @r2wc is bundled into the element: left to the user's bundler it would pull in real React.
    // React stays external for the React wrapper only (the element's imports go to mini-react).
    rollupOptions: {
      external: (id, importer) => /^(penpal|ox|viem)($|\/)/.test(id) || (/^react($|\/|-dom)/.test(id) && !elementImporter(importer)),
    },
  },
})

export const gzipSize = (code: string): number => gzipSync(code, { level: 9 }).length

export async function measure(config: InlineConfig): Promise<{ raw: number; gzip: number }> {
  const chunks = await bundle(config)
  const code = chunks.map((c) => c.code).join('\n')
  return { raw: Buffer.byteLength(code), gzip: gzipSize(code) }
}

export { bundle }

type WidgetChunk = Out & { isEntry?: boolean; imports?: string[]; facadeModuleId?: string | null; moduleIds?: string[] }

/** The wallet frame as `vite build` ships it (dist/widget, vite.config.ts), built in memory. */
async function widgetBuild(): Promise<{ chunks: WidgetChunk[]; page: string }> {
  // Built as `vite build` ships it, whatever NODE_ENV says (Vitest sets "test", which would pick
  // React's development builds and JSX runtime).
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  const result = await build({ configFile: at('vite.config.ts'), logLevel: 'silent', mode: 'production', build: { write: false } }).finally(() => {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  })
  const outputs = (Array.isArray(result) ? result : [result]) as { output: ({ type: string; source?: unknown } & WidgetChunk)[] }[]
  const files = outputs.flatMap((o) => o.output)
  const page = files.find((x) => x.type === 'asset' && x.fileName === 'index.html')?.source
  if (typeof page !== 'string') throw new Error('The wallet frame build has no index.html')
  return { chunks: files.filter((x) => x.type === 'chunk'), page }
}

export type ChunkSet = { files: string[]; modules: string[]; raw: number; gzip: number }

/** `starts` and every chunk they import statically, measured gzipped per file as a browser fetches them. */
function closure(chunks: WidgetChunk[], starts: WidgetChunk[]): ChunkSet {
  const byName = new Map(chunks.map((c) => [c.fileName, c]))
  const files = new Set<string>()
  const visit = (name: string) => {
    if (files.has(name)) return
    files.add(name)
    for (const next of byName.get(name)?.imports ?? []) visit(next)
  }
  for (const chunk of starts) visit(chunk.fileName)
  const picked = [...files].map((name) => byName.get(name)!)
  return {
    files: [...files],
    modules: picked.flatMap((c) => c.moduleIds ?? []).map((id) => id.replace(root, '')),
    raw: picked.reduce((n, c) => n + Buffer.byteLength(c.code), 0),
    gzip: picked.reduce((n, c) => n + gzipSize(c.code), 0),
  }
}

/**
 * The wallet frame's two first loads. `core`: the entry (widget/main.ts), the core it imports at
 * once (widget/frame.ts) and what both import statically: everything the first answers to the
 * page need, no React. `firstRoute`: the core and the UI (widget/ui.tsx, which the page preloads
 * and the core runs once it has answered) up to the connect modal's home. Every other page loads
 * lazily. `page`: the frame's page as built.
 */
export async function widgetFirstLoads(): Promise<{ core: ChunkSet; firstRoute: ChunkSet; page: string }> {
  const { chunks, page } = await widgetBuild()
  // The entry's module sits in the chunk of the bundle's loader group (vite.config.ts), which the page loads.
  const entries = chunks.filter((c) => c.moduleIds?.includes(at('widget/main.ts')))
  const ui = chunks.filter((c) => c.facadeModuleId === at('widget/ui.tsx'))
  // The entry starts the frame's storage and network work, then imports the core (frame.ts).
  const core = chunks.filter((c) => c.moduleIds?.includes(at('widget/frame.ts')))
  if (entries.length === 0 || ui.length === 0 || core.length === 0) throw new Error('The wallet frame build has no entry, no core (frame.ts) or no UI chunk')
  return { core: closure(chunks, [...entries, ...core]), firstRoute: closure(chunks, [...entries, ...core, ...ui]), page }
}

/** The wallet frame's first route (core and UI up to the connect home): what the size budget holds. */
export async function widgetFirstRoute(): Promise<ChunkSet> {
  return (await widgetFirstLoads()).firstRoute
}

/** The wallet frame's core alone (the entry, the core it imports and their static imports), for the bench's table. */
export async function widgetCore(): Promise<ChunkSet> {
  return (await widgetFirstLoads()).core
}
