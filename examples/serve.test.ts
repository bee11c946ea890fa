import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { examplesProviderUrl, serveExamples } from './serve.ts'

// The example pages' server runs in the same process as the sandbox (npm start): one bad request
// must not end it, and pages name the sandbox actually running.

let server: Server
let origin: string
beforeAll(async () => {
  server = await serveExamples({ roots: ['examples'], host: '127.0.0.1', port: 0, providerUrl: 'http://localhost:41234' })
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => server.close())

test('a malformed escape in the path is a 400, and the server keeps serving', async () => {
  for (const path of ['/%', '/demo/%E0%A4%A', '/%ZZ']) expect((await fetch(`${origin}${path}`)).status, path).toBe(400)
  expect((await fetch(`${origin}/demo/`)).status).toBe(200)
})

test('pages are served naming the running sandbox instead of the default provider URL', async () => {
  const page = await (await fetch(`${origin}/demo/`)).text()
  expect(page).toContain('http://localhost:41234/kit.js')
  expect(page).not.toContain(examplesProviderUrl)
})

test('no path leaves the served folders', async () => {
  for (const path of ['/../package.json', '/%2e%2e/package.json', '/demo/..%2f..%2fpackage.json'])
    expect((await fetch(`${origin}${path}`)).status, path).not.toBe(200)
})

test('a file changed on disk (new mtime) is served changed, still naming the running sandbox', async () => {
  const root = await mkdtemp(join(tmpdir(), 'serve-examples-'))
  const page = join(root, 'page.html')
  await writeFile(page, `<script src="${examplesProviderUrl}/kit.js"></script>`)
  const own = await serveExamples({ roots: [root], host: '127.0.0.1', port: 0, providerUrl: 'http://localhost:41234' })
  try {
    const url = `http://127.0.0.1:${(own.address() as { port: number }).port}/page.html`
    expect(await (await fetch(url)).text()).toBe('<script src="http://localhost:41234/kit.js"></script>')
    // A rebuild: other text, and an mtime that surely differs from the first one.
    await writeFile(page, `<script src="${examplesProviderUrl}/kit.js?v=2"></script>`)
    await utimes(page, new Date(), new Date(Date.now() + 60_000))
    expect(await (await fetch(url)).text()).toBe('<script src="http://localhost:41234/kit.js?v=2"></script>')
  } finally {
    own.close()
    await rm(root, { recursive: true, force: true })
  }
})
