import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { freePort } from '../../infra/ports.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { repoRoot } from '../../server.ts'

// The back-end example (examples/identity-server/main.ts) run as the README says, against a real
// sandbox: a page's identity token in, who signed in out; a reused, foreign or forged token refused.

const command = 'npx tsx examples/identity-server/main.ts'
let sandbox: TestSandbox
let server: ChildProcess
let origin: string

beforeAll(async () => {
  sandbox = await startTestSandbox()
  const port = await freePort()
  const [program, ...args] = command.split(' ')
  // The provider comes from the data folder, as with npm start (whatever holds port 8787).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'WALLET_KIT_URL'))
  server = spawn(program!, args, { cwd: repoRoot, env: { ...env, SANDBOX_DATA_DIR: sandbox.dataDir, PORT: String(port) }, detached: true })
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
  // Its own process group (npx, tsx and node): stop them all.
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve))
    process.kill(-server.pid, 'SIGTERM')
    await exited
  }
  await sandbox?.dispose()
})

const postToken = async (identityToken: unknown) => {
  const response = await fetch(`${origin}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identityToken }),
  })
  return { status: response.status, body: await response.json() }
}
const identityTokenOf = async (walletToken: string, app = 'demo') =>
  (await sandbox.post('/api/v2/wallet/identity-token', {}, walletToken, app)).body.data.identityToken as string

test('the README documents the command', () => {
  expect(readFileSync(join(repoRoot, 'sandbox', 'README.md'), 'utf8')).toContain(command)
})

test('a token posted by the page answers who signed in, once', async () => {
  const wallet = await sandbox.signUp('example-server@example.com')
  const token = await identityTokenOf(wallet.walletToken)
  const { rows } = await sandbox.store.query<{ user_id: string }>('SELECT user_id FROM wallets WHERE address = $1', [wallet.address])
  expect(await postToken(token)).toEqual({
    status: 200,
    body: { signedIn: true, userId: rows[0]!.user_id, walletAddress: wallet.address, smartAccounts: [], signInMethod: 'email', expiresAt: expect.any(Number) },
  })
  // The same token again (copied off the page, say) signs nobody in.
  expect(await postToken(token)).toEqual({ status: 401, body: { signedIn: false, error: 'This identity token was already used' } })
})

test("another app's token, a forged one, or none is refused", async () => {
  const elsewhere = await sandbox.signUp('example-server@example.com', 'smart')
  const foreign = await postToken(await identityTokenOf(elsewhere.walletToken, 'smart'))
  expect(foreign.status).toBe(401)
  expect(foreign.body).toMatchObject({ signedIn: false, error: expect.stringMatching(/^Invalid identity token/) })
  const wallet = await sandbox.signUp('example-server-forged@example.com')
  const [header, payload, signature] = (await identityTokenOf(wallet.walletToken)).split('.')
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
  const forged = [header, Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url'), signature].join('.')
  expect((await postToken(forged)).status).toBe(401)
  expect(await postToken(undefined)).toEqual({ status: 400, body: { signedIn: false, error: 'identityToken is required' } })
})
