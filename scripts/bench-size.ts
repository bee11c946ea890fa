import { entryConfig, kitConfig, measure, widgetFirstRoute, type Renderer } from './bundles.ts'

/**
 * `npm run bench:size`: gzipped sizes of what a host loads, beside two other wallet SDKs bundled
 * the same way in the same run (minified ESM, every dependency bundled). The kit.js rows with
 * other renderers are the measurements behind README.md's renderer choice.
 */
const rows: [string, () => ReturnType<typeof measure>][] = [
  ['kit.js (script tag: provider + <wallet-kit>, mini-react)', () => measure(kitConfig())],
  ['wallet-kit (provider only)', () => measure(entryConfig('host-sdk/index.ts'))],
  ['wallet-kit/element (provider + <wallet-kit>)', () => measure(entryConfig('host-sdk/element.ts'))],
  ['wallet-kit/react (React external)', () => measure(entryConfig('host-sdk/react/index.ts', [/^react($|\/|-dom)/]))],
  ...(['preact', 'preact-compat', 'react'] as Renderer[]).map((renderer): [string, () => ReturnType<typeof measure>] => [
    `kit.js with ${renderer} as the element renderer`,
    () => measure(kitConfig({ renderer })),
  ]),
  ['wallet frame, first route (up to the connect home)', () => widgetFirstRoute()],
  ['magic-sdk (Magic)', () => measure(entryConfig('scripts/bench/magic.ts'))],
  ['@coinbase/wallet-sdk (createCoinbaseWalletSDK)', () => measure(entryConfig('scripts/bench/coinbase.ts'))],
]

/** 1 KB = 1000 bytes, as in the budget test (host-sdk/size.test.ts). */
const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`
console.log(`${'bundle'.padEnd(58)} ${'minified'.padStart(10)} ${'gzip'.padStart(9)} ${'gzip bytes'.padStart(11)}`)
for (const [name, run] of rows) {
  try {
    const { raw, gzip } = await run()
    console.log(`${name.padEnd(58)} ${kb(raw).padStart(10)} ${kb(gzip).padStart(9)} ${String(gzip).padStart(11)}`)
  } catch (err) {
    console.log(`${name.padEnd(58)} failed: ${(err as Error).message.split('\n')[0]}`)
  }
}
