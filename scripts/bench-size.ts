import { measureSizes } from './bench/sizes.ts'

/**
 * `npm run bench:size`: gzipped sizes of what a host loads, beside other wallet SDKs bundled the
 * same way in the same run. The kit.js rows with other renderers are the measurements behind
 * README.md's renderer choice. `npm run bench` runs this with the rest.
 */
const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`
const rows = await measureSizes(() => {})
console.log(`${'bundle'.padEnd(66)} ${'minified'.padStart(10)} ${'gzip'.padStart(9)} ${'gzip bytes'.padStart(11)}`)
for (const row of rows)
  console.log(
    'error' in row
      ? `${row.bundle.padEnd(66)} failed: ${row.error}`
      : `${row.bundle.padEnd(66)} ${kb(row.raw).padStart(10)} ${kb(row.gzip).padStart(9)} ${String(row.gzip).padStart(11)}`,
  )
