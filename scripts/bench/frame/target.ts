import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { FrameSizes } from './sizes.ts'
import { root, type Tree } from './worktree.ts'

/** One side of the comparison, running: its sandbox (its own code and dist/) and a host page server naming it. */
export type Target = {
  readonly tree: Tree
  /** The provider origin (http://localhost:<port>): kit.js and the frame. */
  readonly providerUrl: string
  /** The host pages' origin (http://127.0.0.1:<port>), another site than the provider's. */
  readonly hostUrl: string
  close(): Promise<void>
}

const inTree = join(root, 'scripts', 'bench', 'in-tree.ts')
const pagesDir = join(root, 'scripts', 'bench', 'pages')
/** The provider URL the bench pages name, replaced by the target's as they are served. */
const pageProvider = 'http://localhost:8787'

/** `npx tsx scripts/bench/in-tree.ts <mode>` in the tree, in a process group of its own (stopped as one). */
function inTreeProcess(tree: Tree, mode: 'serve' | 'sizes'): ChildProcess {
  const env = { ...process.env }
  // Its own data folder and database, whatever the environment names for `npm start`.
  for (const name of ['DATABASE_URL', 'SANDBOX_DATA_DIR', 'SANDBOX_MASTER_KEY']) delete env[name]
  return spawn('npx', ['tsx', inTree, mode], { cwd: tree.dir, env, detached: true, stdio: ['pipe', 'pipe', 'inherit'] })
}

/** The first line the process prints, parsed; rejects if it exits first. */
function firstLine<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as T)
      } catch {
        reject(new Error(`${what}: unexpected output ${line}`))
      }
    })
    child.once('exit', (code) => reject(new Error(`${what}: exited (${code}) before answering`)))
  })
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const kill = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {}
    }, 20_000)
    child.once('exit', () => {
      clearTimeout(kill)
      resolve()
    })
    child.stdin!.end()
  })
}

/** Starts the tree's sandbox and a page server for it; both on free ports. */
export async function startTarget(tree: Tree): Promise<Target> {
  const child = inTreeProcess(tree, 'serve')
  let pages: Server | undefined
  try {
    const { url } = await firstLine<{ url: string }>(child, `${tree.label}'s sandbox`)
    pages = await servePages(url)
    const hostUrl = `http://127.0.0.1:${(pages.address() as { port: number }).port}`
    return {
      tree,
      providerUrl: url,
      hostUrl,
      async close() {
        pages?.close()
        await stopGroup(child)
      },
    }
  } catch (error) {
    pages?.close()
    await stopGroup(child)
    throw error
  }
}

/** The tree's frame sizes, measured by its own scripts/bundles.ts in its own folder. */
export async function treeSizes(tree: Tree): Promise<FrameSizes> {
  const child = inTreeProcess(tree, 'sizes')
  child.stdin!.end()
  return firstLine<FrameSizes>(child, `${tree.label}'s sizes`)
}

/**
 * The bench pages (scripts/bench/pages) on 127.0.0.1, naming `providerUrl`; anything else is a
 * page with nothing on it (404). The comparison's own server, the same for both sides.
 */
function servePages(providerUrl: string): Promise<Server> {
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1)
    let page: string
    try {
      if (!/^[\w-]+\.html$/.test(name)) throw new Error('not a page')
      page = readFileSync(join(pagesDir, name), 'utf8').replaceAll(pageProvider, providerUrl)
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}
