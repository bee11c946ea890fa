import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { compareFrames } from './bench/frame/compare.ts'
import { renderResults, type Results } from './bench/report.ts'

/**
 * `npm run bench` (not part of `npm test`): sizes beside our peers; the wallet frame before and
 * after a change (a git ref, checked out and built beside the work tree, against the work tree, or
 * another ref), interleaved run by run in headless Chromium; sign-in and signing timings; the
 * sandbox under load; sponsored smart-account operations. Writes bench/results.json and
 * bench/results.md (the table README.md quotes). Goals are reported here, never asserted in tests.
 * It drives a browser: beside the browser suites, hold their lock (flock /tmp/wallet-kit-e2e.lock).
 *   npm run bench [-- --runs 20 --seconds 10 --mixed-seconds 300 --baseline 12af2f6 --current .]
 *   npm run bench -- --only frame --runs 20    the frame comparison alone; the rest of the files kept
 */
const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 && args[index + 1] !== undefined ? args[index + 1]! : fallback
}
const log = (line: string) => console.log(`[bench] ${line}`)
const only = option('only', 'all')
if (only !== 'all' && only !== 'frame') throw new Error(`--only ${only}: the one part that runs alone is "frame"`)
const runs = Number(option('runs', '20'))

/** The commit before the frame core and typed schemas (issue 23): the "before" of their goals. */
const defaultBaseline = '12af2f6'
const frame = () => compareFrames({ baseline: option('baseline', defaultBaseline), current: option('current', '.'), runs, log })

const machine = `${process.platform} ${process.arch}, Node ${process.versions.node}`
let results: Results
if (only === 'frame') {
  const previous = existsSync('bench/results.json') ? (JSON.parse(readFileSync('bench/results.json', 'utf8')) as Results) : undefined
  // The other parts as their last full run left them (an older file's other keys dropped).
  const { sizes, browser, sandbox, smartAccount } = previous ?? {}
  const kept = { ...(sizes && { sizes }), ...(browser && { browser }), ...(sandbox && { sandbox }), ...(smartAccount && { smartAccount }) }
  results = { date: previous?.date ?? new Date().toISOString(), machine, ...kept, frame: await frame() }
} else {
  // Imported here only: `--only frame` loads nothing of the work tree's product code (the other side may be mid-change).
  const { measureSizes } = await import('./bench/sizes.ts')
  const { loginTimings } = await import('./bench/browser.ts')
  const sizes = await measureSizes(log)
  const frameComparison = await frame()
  const browser = await loginTimings({ runs, log })
  log('sandbox under load (its own process)…')
  const loadOutput = execFileSync(
    'npx',
    ['tsx', 'scripts/bench-sandbox.ts', '--seconds', option('seconds', '10'), '--mixed-seconds', option('mixed-seconds', '300')],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 },
  )
  const sandbox = JSON.parse(loadOutput.trim().split('\n').at(-1) ?? '{}') as Results['sandbox']
  log('sponsored smart-account operations (its own process)…')
  const aaOutput = execFileSync('npx', ['tsx', 'scripts/bench-smart-account.ts', '--runs', '10'], { encoding: 'utf8' })
  const smartAccount = JSON.parse(aaOutput.trim().split('\n').at(-1) ?? '{}') as Record<string, number>
  results = { date: new Date().toISOString(), machine, sizes, frame: frameComparison, browser, ...(sandbox && { sandbox }), smartAccount }
}
mkdirSync('bench', { recursive: true })
writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`)
const markdown = renderResults(results)
writeFileSync('bench/results.md', markdown)
console.log(markdown)
