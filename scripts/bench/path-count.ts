import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type InlineConfig } from 'vite'
import { attribute, byRoom, loadMap, ownFiles } from './path-map.ts'
import type { RawRun, RawWindow } from './path-run.ts'

/**
 * The source files one personal_sign runs through, counted from what runs rather than from imports.
 *   npx tsx scripts/bench/path-count.ts [--repo DIR] [--keep]     (npm run bench:path)
 * 1. Builds DIR's wallet frame (its vite.config.ts) and kit.js (its scripts/bundles.ts kitConfig)
 *    into a temp folder, unminified and with source maps; DIR's own files are not touched.
 * 2. Under the browser suites' lock, ./path-run.ts serves them from DIR's sandbox, signs a user up
 *    in headless Chromium, and takes V8 call counts on the host page, the wallet frame and the
 *    sandbox process: 3 s idle, then one personal_sign from the host page, confirmed in the frame,
 *    up to the signature at the host.
 * 3. Every browser function called (count > 0) is mapped through the source maps to the file it is
 *    written in; a chunk first loaded during the sign also counts the files whose module body it ran.
 *    The sandbox's files are the ones its process ran a function of. Dependencies are left out.
 * Prints the files by room and writes them to bench/path-count.json under the tree's commit.
 * --keep leaves the temp folder (builds, raw counts) in place.
 */
const here = fileURLToPath(new URL('.', import.meta.url))
const self = resolve(here, '../..')
const at = process.argv.indexOf('--repo')
const repo = resolve(at > 0 ? process.argv[at + 1]! : self)
const git = (args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim()
const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== ''
const commit = `${git(['rev-parse', '--short', 'HEAD'])}${dirty ? ' + changes' : ''}`
// Another tree is counted by this one's harness (where the window starts and ends): the key says so,
// so a recount of an old commit never overwrites the entry its own harness wrote.
const harness = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: self, encoding: 'utf8' }).trim()
const key = repo === self ? commit : `${commit}, counted by ${harness}'s harness`
const lock = '/tmp/wallet-kit-e2e.lock'

const work = mkdtempSync(join(tmpdir(), 'wallet-kit-path-build-'))
try {
  const dist = join(work, 'dist')
  console.log(`building ${repo} (${commit}) into ${dist} (unminified, source maps)…`)
  await buildTree(repo, dist)
  const rawFile = join(work, 'raw.json')
  console.log(`waiting for ${lock}, then signing once in headless Chromium…`)
  const child = spawnSync('flock', [lock, 'npx', 'tsx', join(here, 'path-run.ts'), '--repo', repo, '--dist', dist, '--out', rawFile], {
    cwd: self,
    stdio: 'inherit',
  })
  if (child.status !== 0) throw new Error(`path-run.ts failed (exit ${child.status})`)
  const raw = JSON.parse(readFileSync(rawFile, 'utf8')) as RawRun
  const result = { commit, harness, repo, date: new Date().toISOString(), ...count(raw.sign, dist), idle: count(raw.idle, dist), confirmedIn: raw.confirmedIn }
  report(result)
  const jsonFile = join(self, 'bench', 'path-count.json')
  const previous = existsSync(jsonFile) ? (JSON.parse(readFileSync(jsonFile, 'utf8')) as Record<string, unknown>) : {}
  writeFileSync(jsonFile, `${JSON.stringify({ ...previous, [key]: result }, null, 2)}\n`)
  console.log(`\nwritten to ${jsonFile} under "${key}"`)
} finally {
  if (process.argv.includes('--keep')) console.log(`kept ${work} (the builds and raw.json)`)
  else rmSync(work, { recursive: true, force: true })
}

/** The frame as its vite.config.ts builds it and kit.js as its bundles.ts does, with maps, into `dist`. */
async function buildTree(tree: string, dist: string) {
  const { kitConfig } = (await import(join(tree, 'scripts', 'bundles.ts'))) as { kitConfig: (o: { write?: boolean; minify?: boolean }) => InlineConfig }
  const cwd = process.cwd()
  // The frame's config names its root relative to the working directory.
  process.chdir(tree)
  process.env.NODE_ENV = 'production'
  try {
    const unminified = { sourcemap: true, minify: false, emptyOutDir: true }
    await build({ configFile: join(tree, 'vite.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir: join(dist, 'widget'), ...unminified } })
    const kit = kitConfig({ write: true, minify: false })
    await build({ ...kit, logLevel: 'warn', build: { ...kit.build, outDir: join(dist, 'kit'), ...unminified } })
  } finally {
    process.chdir(cwd)
  }
}

type Count = {
  files: string[]
  rooms: Record<string, string[]>
  /** `files`: how many distinct files the two browser sides ran (a file of bridge/ may run on both). */
  browser: { host: string[]; frame: string[]; evaluatedOnly: string[]; files: number }
  sandbox: string[]
  ms: number
}

/** One window's files: browser functions mapped to their sources, the sandbox's files as they are. */
function count(window: RawWindow, dist: string): Count {
  const built = listJs(dist)
  const sides = { host: new Set<string>(), frame: new Set<string>() }
  const evaluated = new Set<string>()
  for (const script of window.browser) {
    const file = built.get(basename(new URL(script.url).pathname))
    if (!file) throw new Error(`${script.url} is not one of the built files`)
    const source = readFileSync(file, 'utf8')
    const top = script.functions.find((fn) => fn.start === 0)
    if (top && top.end !== source.length) throw new Error(`${script.url} is not the file built at ${file} (lengths differ)`)
    const run = {
      file,
      source,
      all: script.functions,
      called: script.functions.filter((fn) => fn.count > 0 && fn !== top),
      loadedInWindow: (top?.count ?? 0) > 0,
    }
    // A bundler helper with no source of ours (the lazy-chunk loader) has no map.
    if (!existsSync(`${file}.map`)) continue
    const files = attribute(run, loadMap(file, source))
    for (const f of files.called) sides[script.side].add(f)
    for (const f of files.evaluated) evaluated.add(f)
  }
  const host = ownFiles(sides.host, repo)
  const frame = ownFiles(sides.frame, repo)
  const sandbox = ownFiles(window.node, repo)
  const called = new Set([...host, ...frame, ...sandbox])
  const evaluatedOnly = ownFiles(evaluated, repo).filter((f) => !called.has(f))
  const files = [...new Set([...called, ...evaluatedOnly])].sort()
  const browserFiles = new Set([...host, ...frame, ...evaluatedOnly]).size
  return { files, rooms: byRoom(files), browser: { host, frame, evaluatedOnly, files: browserFiles }, sandbox, ms: window.ms }
}

function listJs(dir: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile() && entry.name.endsWith('.js')) files.set(entry.name, join(entry.parentPath, entry.name))
  return files
}

function report(result: Count & { commit: string; idle: Count }) {
  const idle = new Set(result.idle.files)
  const mark = (f: string) => `${f}${result.browser.evaluatedOnly.includes(f) ? ' (module body only)' : ''}${idle.has(f) ? ' (also ran idle)' : ''}`
  console.log(`\npersonal_sign path, ${result.commit}: ${result.files.length} files (${result.ms} ms window)`)
  console.log(
    `  host page ${result.browser.host.length}, wallet frame ${result.browser.frame.length} (+${result.browser.evaluatedOnly.length} module bodies only), both browser sides ${result.browser.files}, sandbox ${result.sandbox.length}`,
  )
  console.log(`  idle ${result.idle.ms} ms before it: ${result.idle.files.length} files ran (timers, polling)\n`)
  const rooms = Object.entries(result.rooms).sort(([a], [b]) => a.localeCompare(b))
  console.log(`${'room'.padEnd(12)} files`)
  for (const [room, files] of rooms) console.log(`${room.padEnd(12)} ${String(files.length).padStart(5)}`)
  console.log(`${'total'.padEnd(12)} ${String(result.files.length).padStart(5)}\n`)
  for (const [room, files] of rooms) {
    console.log(`${room}/`)
    for (const f of files) console.log(`  ${mark(f)}`)
  }
}
