import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { extname, join, normalize, resolve } from 'node:path'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

/** The file for `path` under `root`, if there is one (a directory means its index.html), with its mtime. */
async function find(root: string, path: string): Promise<{ file: string; mtimeMs: number } | undefined> {
  let file = normalize(join(root, path))
  if (!file.startsWith(root)) return undefined
  let info = await stat(file).catch(() => undefined)
  if (info?.isDirectory()) {
    file = join(file, 'index.html')
    info = await stat(file).catch(() => undefined)
  }
  return info?.isFile() ? { file, mtimeMs: info.mtimeMs } : undefined
}

/** The provider the example pages and their bundles name: the sandbox on its default port. */
export const examplesProviderUrl = 'http://localhost:8787'

/**
 * A plain static server for the example host pages: a host origin that is not the provider's.
 * `roots` are tried in order (the built examples first, then the ones that need no build).
 * `providerUrl`: the sandbox actually running (its port comes from the environment or is a free
 * one); pages and scripts are served naming it instead of http://localhost:8787.
 */
export function serveExamples(options: { roots: readonly string[]; host: string; port: number; providerUrl?: string }): Promise<Server> {
  const rewrite = options.providerUrl && options.providerUrl !== examplesProviderUrl ? options.providerUrl : undefined
  const roots = options.roots.map((r) => resolve(r))
  // Rewritten pages and scripts by file, kept while the file's mtime is unchanged (a rebuild is picked up).
  const rewritten = new Map<string, { mtimeMs: number; text: string }>()
  const rewriteOf = async (to: string, file: string, mtimeMs: number) => {
    const kept = rewritten.get(file)
    if (kept?.mtimeMs === mtimeMs) return kept.text
    const text = (await readFile(file, 'utf8')).replaceAll(examplesProviderUrl, to)
    rewritten.set(file, { mtimeMs, text })
    return text
  }
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let path: string
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    } catch {
      // A malformed escape (`/%`) threw out of the handler and took the whole stack down with it.
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request')
      return
    }
    if (path === '/') {
      res.writeHead(302, { location: '/demo/' }).end()
      return
    }
    if (path.split('/').includes('..')) {
      res.writeHead(403).end('Forbidden')
      return
    }
    let found: Awaited<ReturnType<typeof find>>
    for (const root of roots) {
      found = await find(root, path)
      if (found) break
    }
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      return
    }
    const type = extname(found.file)
    // Read before the head is sent, so a file gone in between is still a clean error.
    const text = rewrite && (type === '.html' || type === '.js') ? await rewriteOf(rewrite, found.file, found.mtimeMs) : undefined
    res.writeHead(200, {
      'content-type': types[type] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      // The COOP example: a host that cuts off the windows its frames open (the wallet's secure window).
      ...(path.startsWith('/coop/') && { 'cross-origin-opener-policy': 'same-origin' }),
    })
    if (text !== undefined) res.end(text)
    else createReadStream(found.file).pipe(res)
  }
  // The server shares the sandbox's process: a failed read answers 500 instead of rejecting unhandled.
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end('Internal Server Error')
    })
  })
  return new Promise((ok, fail) => {
    server.once('error', fail)
    server.listen(options.port, options.host, () => ok(server))
  })
}
