import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { root } from './bundles.ts'

/**
 * The package as a user gets it: `npm pack` of the built repo, installed from the tarball into a
 * scratch folder, then used by a Vite app (browser entries), a Node script (the service clients,
 * and importing the browser entry on a server) and the type checker. Runs after the build
 * (scripts/test.sh), with its own config (scripts/vitest.pack.config.ts).
 */
const scratch = mkdtempSync(join(tmpdir(), 'wallet-kit-pack-'))
const run = (cmd: string, args: string[], cwd = scratch) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
const write = (path: string, text: string) => writeFileSync(join(scratch, path), text)

type PackResult = { filename: string; files: { path: string }[] }[]
let packed: PackResult[number]

beforeAll(() => {
  const [result] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', scratch], root)) as PackResult
  packed = result!
  const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
  write(
    'package.json',
    JSON.stringify({
      name: 'scratch-app',
      private: true,
      type: 'module',
      dependencies: {
        'wallet-kit': `file:./${packed.filename}`,
        react: own.devDependencies.react ?? '^19.3.0',
        'react-dom': own.devDependencies['react-dom'] ?? '^19.3.0',
        '@types/react': own.devDependencies['@types/react'],
      },
    }),
  )
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'])
}, 240_000)

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

test('the tarball holds built code and declarations only: no sources, tests or test helpers', () => {
  const paths = packed.files.map((f) => f.path)
  expect(paths).toEqual(expect.arrayContaining(['package.json', 'dist/lib/index.js', 'dist/lib/sdk.js', 'dist/kit/kit.js', 'dist/types/host-sdk/index.d.ts']))
  const stray = paths.filter((p) => (p.endsWith('.ts') && !p.endsWith('.d.ts')) || p.endsWith('.tsx') || /test|fixture/.test(p))
  expect(stray).toEqual([])
})

test('installing it brings only what runs: no server or test packages', () => {
  const installed = JSON.parse(readFileSync(join(scratch, 'node_modules/wallet-kit/package.json'), 'utf8')) as { dependencies: Record<string, string> }
  expect(Object.keys(installed.dependencies).sort()).toEqual(['ox', 'viem'])
  const resolves = (name: string) =>
    spawnSync(process.execPath, ['--input-type=module', '-e', `import.meta.resolve(${JSON.stringify(name)})`], { cwd: scratch }).status === 0
  expect(resolves('viem')).toBe(true) // the probe works
  for (const server of ['hono', '@electric-sql/pglite', 'jose', '@hono/node-server', 'vitest', '@walletconnect/ethereum-provider']) {
    expect(resolves(server), server).toBe(false)
  }
})

test('a Node script uses the service clients, and importing the browser entry on a server touches no window', () => {
  write(
    'server.mjs',
    `import { createClient } from 'wallet-kit/sdk'
import { createWalletKit, ProviderRpcError, UserRejectedRequestError } from 'wallet-kit'
const client = createClient({ appId: 'demo', clientSecret: 'demo-client-secret' })
let production
try { createClient({ env: 'production', appId: 'demo' }) } catch (error) { production = error.code }
// An error as the provider raises it, told apart as a dapp would: by class and by code.
const rejected = new ProviderRpcError(4001, 'User rejected the request')
const errors = { byClass: rejected instanceof UserRejectedRequestError, code: rejected.code, base: rejected instanceof ProviderRpcError }
console.log(JSON.stringify({ client: typeof client, kit: typeof createWalletKit, production, errors }))`,
  )
  expect(JSON.parse(run('node', ['server.mjs']))).toEqual({
    client: 'object',
    kit: 'function',
    production: 'INVALID_CONFIG',
    errors: { byClass: true, code: 4001, base: true },
  })
})

test('a back end verifies identity tokens with the package alone: jose is bundled and loaded on the first call', () => {
  write(
    'identity.mjs',
    `import { verifyIdentityToken } from 'wallet-kit/sdk'
const codes = []
// Neither needs the provider's keys: a token that is no JWS, and an unsigned one.
for (const token of ['x.y.z', 'eyJhbGciOiJub25lIn0.e30.']) {
  try { await verifyIdentityToken(token, { appId: 'demo', providerUrl: 'http://127.0.0.1:9', environment: 'production' }) } catch (error) { codes.push(error.code) }
}
console.log(JSON.stringify(codes))`,
  )
  expect(JSON.parse(run('node', ['identity.mjs']))).toEqual(['INVALID_IDENTITY_TOKEN', 'INVALID_IDENTITY_TOKEN'])
})

test('a Vite app bundles the provider, the element and the React wrapper from the package', async () => {
  write('index.html', '<!doctype html><div id="root"></div><wallet-kit></wallet-kit><script type="module" src="./main.tsx"></script>')
  write(
    'main.tsx',
    `import { createWalletKit } from 'wallet-kit'
import 'wallet-kit/element'
import { ConnectButton, WalletKitProvider } from 'wallet-kit/react'
import { createRoot } from 'react-dom/client'
export const make = () => createWalletKit({ appId: 'demo', providerUrl: 'http://localhost:8787' })
createRoot(document.getElementById('root')!).render(<WalletKitProvider options={{ appId: 'demo' }}><ConnectButton /></WalletKitProvider>)`,
  )
  const result = await build({ root: scratch, configFile: false, logLevel: 'silent', build: { write: false } })
  const outputs = (Array.isArray(result) ? result : [result]) as { output: { type: string; code?: string }[] }[]
  const code = outputs.flatMap((o) => o.output.map((x) => x.code ?? '')).join('\n')
  expect(code).toContain('dev.walletkit') // the EIP-6963 rdns the provider announces
  expect(code).toContain('wallet-kit') // the custom element's tag
})

test("its declarations type-check a user's code, and catch a wrong call", () => {
  write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'ESNext',
        moduleResolution: 'Bundler',
        target: 'ES2022',
        jsx: 'react-jsx',
        noEmit: true,
        lib: ['ES2023', 'DOM'],
        types: [],
      },
      files: ['typed.tsx'],
    }),
  )
  write(
    'typed.tsx',
    `import { createWalletKit, UserRejectedRequestError, type WalletKit, type EIP1193Provider } from 'wallet-kit'
import { WalletKitProvider, useWalletKit } from 'wallet-kit/react'
import { createClient, verifyIdentityToken, type IdentityClaims } from 'wallet-kit/sdk'
const kit: WalletKit = createWalletKit({ appId: 'demo', theme: 'light' })
const provider: EIP1193Provider = kit.provider
export const accounts: Promise<unknown> = provider.request({ method: 'eth_requestAccounts' }).catch((e: unknown) => {
  if (e instanceof UserRejectedRequestError) { const code: 4001 = e.code; return code }
  throw e
})
export const client = createClient({ appId: 'demo' })
export const who: Promise<IdentityClaims['walletAddress']> = verifyIdentityToken('token', { appId: 'demo', providerUrl: 'http://localhost:8787', environment: 'production' }).then((c) => c.walletAddress)
export function Address() { const { address } = useWalletKit(); return <span>{address}</span> }
export const app = <WalletKitProvider options={{ appId: 'demo', chains: [31337] }}><Address /></WalletKitProvider>
// @ts-expect-error appId is required
createWalletKit({ theme: 'light' })
// @ts-expect-error no such theme
createWalletKit({ appId: 'demo', theme: 'pink' })`,
  )
  const tsc = () => spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: scratch, encoding: 'utf8' })
  const good = tsc()
  expect(good.stdout + good.stderr).toBe('')
  expect(good.status).toBe(0)
  // The same check fails on a real type error, so the pass above means something.
  write('typed.tsx', `import { createWalletKit } from 'wallet-kit'\nexport const n: number = createWalletKit({ appId: 'demo' })`)
  const bad = tsc()
  expect(bad.status).not.toBe(0)
  expect(bad.stdout).toMatch(/typed\.tsx.*TS2322/)
})
