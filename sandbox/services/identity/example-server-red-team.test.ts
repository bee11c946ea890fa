import { type ChildProcess, spawn } from 'node:child_process'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { freePort } from '../../infra/ports.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { repoRoot } from '../../server.ts'
import { identityTokenLifetimeSeconds } from './key-ring.ts'

// Attacks on the back-end example (examples/identity-server/main.ts): a token replayed in the
// seconds after its expiry, when the verifier's clock tolerance still takes it, and a body too
// large to read. The example runs with its clock set just past a fresh token's expiry.

let sandbox: TestSandbox
let server: ChildProcess
let origin: string

/** The example's clock, this far ahead: a token minted now is 1.5 s past its expiry there (within the 5 s tolerance). */
const aheadMs = identityTokenLifetimeSeconds * 1000 + 1500
const shiftClock = `data:text/javascript,${encodeURIComponent(
  `const R = Date; globalThis.Date = class extends R { constructor(...a) { a.length ? super(...a) : super(R.now() + ${aheadMs}) } static now() { return R.now() + ${aheadMs} } }`,
)}`

beforeAll(async () => {
  sandbox = await startTestSandbox()
  const port = await freePort()
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'WALLET_KIT_URL'))
  server = spawn('npx', ['tsx', 'examples/identity-server/main.ts'], {
    cwd: repoRoot,
    env: { ...env, SANDBOX_DATA_DIR: sandbox.dataDir, PORT: String(port), NODE_OPTIONS: `--import=${shiftClock}` },
    detached: true,
  })
  origin = await new Promise<string>((resolve, reject) => {
    let out = ''
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (listening) resolve(listening[1]!)
    })
    server.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    server.once('exit', (code) => reject(new Error(`the example exited (${code}): ${out}`)))
  })
}, 120_000)

afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve))
    process.kill(-server.pid, 'SIGTERM')
    await exited
  }
  await sandbox?.dispose()
})

const post = async (body: string) => {
  const response = await fetch(`${origin}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return { status: response.status, body: await response.json() }
}

test('a token just past its expiry, still inside the clock tolerance, signs in once only (not again once it is forgotten)', async () => {
  const wallet = await sandbox.signUp('example-replay@example.com')
  const token = (await sandbox.post('/api/v2/wallet/identity-token', {}, wallet.walletToken)).body.data.identityToken as string
  const first = await post(JSON.stringify({ identityToken: token }))
  expect(first).toMatchObject({ status: 200, body: { signedIn: true } })
  expect(await post(JSON.stringify({ identityToken: token }))).toEqual({
    status: 401,
    body: { signedIn: false, error: 'This identity token was already used' },
  })
})

test('a body larger than any identity token is refused without being read', async () => {
  const answer = await post(JSON.stringify({ identityToken: 'x'.repeat(2_000_000) }))
  expect(answer.status).toBe(413)
  expect(answer.body).toEqual({ signedIn: false, error: 'Request body too large' })
})
