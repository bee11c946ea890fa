import type { Server } from 'node:http'
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
