import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { extname, join, normalize, resolve } from 'node:path'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

/** The file for `path` under `root`, if there is one (a directory means its index.html). */
function find(root: string, path: string): string | undefined {
  let file = normalize(join(root, path))
  if (!file.startsWith(root)) return undefined
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html')
  return existsSync(file) ? file : undefined
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
  const server = createServer((req, res) => {
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
    const file = roots.map((root) => find(root, path)).find(Boolean)
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      return
    }
    res.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      // The COOP example: a host that cuts off the windows its frames open (the wallet's secure window).
      ...(path.startsWith('/coop/') && { 'cross-origin-opener-policy': 'same-origin' }),
    })
    const type = extname(file)
    if (rewrite && (type === '.html' || type === '.js')) res.end(readFileSync(file, 'utf8').replaceAll(examplesProviderUrl, rewrite))
    else createReadStream(file).pipe(res)
  })
  return new Promise((ok, fail) => {
    server.once('error', fail)
    server.listen(options.port, options.host, () => ok(server))
  })
}
