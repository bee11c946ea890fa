import { readFile, stat } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import type { Context } from 'hono'

// Files of the build (dist/): its pages and scripts read per request, its hashed assets cached for good.

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
}

/** A file of dist/<app>/assets/ (Vite puts a content hash in every name, so they never change); 404 outside it. */
export async function serveAsset(c: Context, distDir: string, app: string, relative: string) {
  const assets = resolve(distDir, app, 'assets')
  const path = resolve(assets, relative)
  if (!path.startsWith(assets + sep)) return c.text('Not found', 404)
  const file = await readFile(path).catch(() => undefined)
  if (!file) return (await exists(distDir)) ? c.text('Not found', 404) : notBuilt(c)
  return c.body(new Uint8Array(file), 200, {
    'Content-Type': contentTypes[extname(path)] ?? 'application/octet-stream',
    'Cache-Control': 'public, max-age=31536000, immutable',
  })
}

/**
 * A built page or script (dist/<path>), read per request so a rebuild shows up without a restart;
 * `transform`, when given, rewrites it as text (a page the server fills in).
 */
export async function serveBuiltFile(c: Context, distDir: string, path: string, headers: Record<string, string> = {}, transform?: (text: string) => string) {
  const file = await readDist(distDir, path)
  if (!file) return notBuilt(c)
  return c.body(transform ? transform(file.toString('utf8')) : new Uint8Array(file), 200, {
    'Content-Type': contentTypes[extname(path)] ?? 'application/octet-stream',
    'Cache-Control': 'no-cache',
    ...headers,
  })
}

const notBuilt = (c: Context) => c.text('Run npm run build first', 503, { 'Cache-Control': 'no-store' })

const readDist = (distDir: string, path: string) => readFile(join(distDir, path)).catch(() => undefined)

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )
