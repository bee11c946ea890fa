import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { entryConfig, gzipSize, kitConfig, measure, root, widgetFirstRoute, type Renderer } from '../bundles.ts'

export type SizeRow = { bundle: string; raw: number; gzip: number; peer?: true }

/** What a host loads, beside other wallet SDKs and Penpal bundled the same way in the same run (minified ESM, every dependency bundled). */
const rows: [string, () => Promise<{ raw: number; gzip: number }>][] = [
  ['kit.js (script tag: provider + <wallet-kit>, mini-react)', () => measure(kitConfig())],
  ['wallet-kit (provider only)', () => measure(entryConfig('host-sdk/index.ts'))],
  ['wallet-kit/element (provider + <wallet-kit>)', () => measure(entryConfig('host-sdk/element.ts'))],
  ['wallet-kit/react (React external)', () => measure(entryConfig('host-sdk/react/index.ts', [/^react($|\/|-dom)/]))],
  ...(['preact', 'preact-compat', 'react'] as Renderer[]).map((renderer): [string, () => ReturnType<typeof measure>] => [
    `kit.js with ${renderer} as the element renderer`,
    () => measure(kitConfig({ renderer })),
  ]),
  ['wallet frame, first route (up to the connect home)', () => widgetFirstRoute()],
  ['wallet frame, every chunk (dist/widget, as built)', async () => builtWidget(() => true)],
  ['wallet frame, the WalletConnect chunk (sign-client; QR page only)', async () => builtWidget((code) => code.includes('wc_sessionPropose'))],
]

/** Other projects' host-side code, bundled the same way; the table gives our size beside each. */
const peers: [string, () => Promise<{ raw: number; gzip: number }>][] = [
  ['penpal (connect + WindowMessenger)', () => measure(entryConfig('scripts/bench/penpal.ts'))],
  ['magic-sdk (Magic)', () => measure(entryConfig('scripts/bench/magic.ts'))],
  ['@coinbase/wallet-sdk (createCoinbaseWalletSDK)', () => measure(entryConfig('scripts/bench/coinbase.ts'))],
  ['porto (Porto)', () => measure(entryConfig('scripts/bench/porto.ts'))],
]

/** The widget's built scripts (dist/widget/assets) that `pick` selects, gzipped one by one as a browser fetches them. */
function builtWidget(pick: (code: string) => boolean): { raw: number; gzip: number } {
  const dir = join(root, 'dist', 'widget', 'assets')
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .filter(pick)
  if (files.length === 0) throw new Error('not in dist/widget: run npm run build first')
  return { raw: files.reduce((n, c) => n + Buffer.byteLength(c), 0), gzip: files.reduce((n, c) => n + gzipSize(c), 0) }
}

/** Every row, measured in turn; a row that cannot be built is reported, not fatal. */
export async function measureSizes(log: (line: string) => void): Promise<(SizeRow | { bundle: string; error: string })[]> {
  const out: (SizeRow | { bundle: string; error: string })[] = []
  for (const [bundle, run, peer] of [...rows, ...peers.map(([name, measure]) => [name, measure, true] as const)]) {
    try {
      const { raw, gzip } = await run()
      out.push({ bundle, raw, gzip, ...(peer ? { peer } : {}) })
      log(`size: ${bundle}: ${(gzip / 1000).toFixed(1)} KB gzipped`)
    } catch (err) {
      out.push({ bundle, error: (err as Error).message.split('\n')[0] ?? 'failed' })
      log(`size: ${bundle}: failed`)
    }
  }
  return out
}
