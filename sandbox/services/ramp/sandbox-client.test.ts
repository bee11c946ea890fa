import { execFile } from 'node:child_process'
import { createPublicKey, generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { repoRoot } from '../../server.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { readSeed } from '../app-config/apps.ts'
import { findAppByRampClientId } from '../app-config/queries.ts'
import { rampClientKeyPath, withSandboxRampClients } from './sandbox-client.ts'

// The demo app's RSA ramp client: its key generated once into the data folder at the sandbox's
// start, and the documented back-end example (examples/ramp/main.ts) run as the README says.

const publicKeyOf = (privatePem: string) => createPublicKey(privatePem).export({ type: 'spki', format: 'pem' }).toString()

describe("the seeded apps' ramp clients", () => {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-kit-ramp-client-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('a seed naming a ramp client gets the public key of a private key generated once into the data folder, readable by its owner only', () => {
    const seeds = readSeed()
    expect(seeds.find((seed) => seed.appId === 'demo')?.secrets?.rampClientId).toBe('demo-ramp-client')
    const first = withSandboxRampClients(seeds, dir)
    const demo = first.find((seed) => seed.appId === 'demo')!
    const pem = readFileSync(rampClientKeyPath(dir, 'demo'), 'utf8')
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/)
    expect(statSync(rampClientKeyPath(dir, 'demo')).mode & 0o777).toBe(0o600)
    expect(demo.secrets).toMatchObject({ rampClientId: 'demo-ramp-client', rampPublicKey: publicKeyOf(pem) })
    // The same key on every start; apps without a ramp client are left as they are.
    expect(withSandboxRampClients(seeds, dir).find((seed) => seed.appId === 'demo')!.secrets).toEqual(demo.secrets)
    expect(readFileSync(rampClientKeyPath(dir, 'demo'), 'utf8')).toBe(pem)
    for (const seed of first.filter((s) => !s.secrets?.rampClientId)) expect(seed).toEqual(seeds.find((s) => s.appId === seed.appId))
  })

  test('a key file that is not an RSA private key stops the start instead of being replaced', () => {
    const other = mkdtempSync(join(dir, 'ec-'))
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    writeFileSync(rampClientKeyPath(other, 'demo'), ec)
    expect(() => withSandboxRampClients(readSeed(), other)).toThrow(/not an RSA private key/)
    expect(readFileSync(rampClientKeyPath(other, 'demo'), 'utf8')).toBe(ec)
  })
})

describe('the README ramp example against a running sandbox', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(() => sandbox?.dispose())

  test('the sandbox registered the key of its data folder for demo-ramp-client (the development app first)', async () => {
    const app = await findAppByRampClientId(sandbox.store, 'demo-ramp-client')
    expect(app).toMatchObject({ appId: 'demo', environment: 'development' })
    expect(app!.secrets.rampPublicKey).toBe(publicKeyOf(readFileSync(rampClientKeyPath(sandbox.dataDir, 'demo'), 'utf8')))
  })

  test('`npx tsx examples/ramp/main.ts`, as documented, quotes, orders on- and off-ramp and adds a recipient', async () => {
    const readme = readFileSync(join(repoRoot, 'sandbox', 'README.md'), 'utf8')
    const command = 'npx tsx examples/ramp/main.ts'
    expect(readme).toContain(command)
    // The client the README shows is the example's, line for line.
    const example = readFileSync(join(repoRoot, 'examples', 'ramp', 'main.ts'), 'utf8')
    const shown = /```ts\n(const \{ ramp \} = createClient[\s\S]*?\n)```/.exec(readme.slice(readme.indexOf(command)))?.[1]
    expect(shown).toBeDefined()
    expect(example).toContain(shown)
    const [program, ...args] = command.split(' ')
    const { stdout } = await promisify(execFile)(program!, args, {
      cwd: repoRoot,
      // The sandbox's URL comes from its data folder, as with npm start (whatever holds port 8787).
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'WALLET_KIT_URL')), SANDBOX_DATA_DIR: sandbox.dataDir },
    })
    const out = JSON.parse(stdout)
    expect(out.quote).toMatchObject({ currency: 'IDR', coin: 'ETH' })
    expect(out.onramp).toMatchObject({
      id: expect.stringMatching(/^onr_/),
      status: 'pending',
      receiverWalletAddress: '0x000000000000000000000000000000000000dEaD',
    })
    expect(out.onramp.paymentUrl).toMatch(new RegExp(`^${sandbox.url}/onramp\\?`))
    expect(out.recipient).toMatchObject({ id: expect.stringMatching(/^rcp_/), bank: 'demo-bank', name: 'Ada Lovelace' })
    expect(out.offramp).toMatchObject({ id: expect.stringMatching(/^ofr_/), status: 'pending', recipientId: out.recipient.id })
    expect(out.offramp.depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(out.orders.docs.map((order: { id: string }) => order.id)).toContain(out.onramp.id)
  }, 60_000)
})
