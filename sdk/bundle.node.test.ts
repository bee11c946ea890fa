import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { expect, test } from 'vitest'
import { build } from 'vite'

const index = fileURLToPath(new URL('./index.ts', import.meta.url))

/** Bundles (minified) a page that imports the given names from the sdk entry, the way an app build would: its chunks. */
async function chunks(names: string[]): Promise<{ code: string; isEntry: boolean }[]> {
  const entry = '\0page'
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'page',
        resolveId: (id) => (id === 'page' ? entry : undefined),
        load: (id) => (id === entry ? `import { ${names.join(', ')} } from ${JSON.stringify(index)}\nglobalThis.page = [${names.join(', ')}]` : undefined),
      },
    ],
    build: { write: false, minify: true, target: 'es2022', rollupOptions: { input: 'page' } },
  })
  const results = Array.isArray(output) ? output : [output]
  return results
    .flatMap((result) => ('output' in result ? result.output : []))
    .map((chunk) => ('code' in chunk ? { code: chunk.code, isEntry: chunk.isEntry } : { code: '', isEntry: false }))
}

/** All of a page's code, as one string. */
const bundle = async (names: string[]) => (await chunks(names)).map((chunk) => chunk.code).join('\n')

/**
 * Gzipped bytes per entry point: a budget a little above today's size, so growth is a decision.
 * Wallet client 3,000 → 3,200: logout and the host checks (no production default, no secret over
 * plain HTTP) took it to ~3,020.
 */
const budgets = { createWalletClient: 3_200, createSmartAccountClient: 3_000, createRampClient: 4_000, createChainClient: 11_000 }
const gzipped = (code: string) => gzipSync(code).length

test('a page using only the wallet client does not ship the ramp, smart-account or chain clients', async () => {
  const walletOnly = await bundle(['createWalletClient'])
  expect(walletOnly).toContain('/wallet/send-transaction')
  for (const marker of ['offramp', 'x-client-id', 'RSASSA-PKCS1-v1_5', '/userOp/', 'jsonrpc']) {
    expect(walletOnly).not.toContain(marker)
  }
  expect(gzipped(walletOnly)).toBeLessThan(budgets.createWalletClient)
})

test('the markers are real, and each client stays within its size budget', async () => {
  // The ramp client's RSA request signer is a chunk of its own, loaded only by a back end that has a
  // private key: what every page loads is the entry chunk.
  const rampChunks = await chunks(['createRampClient'])
  const ramp = rampChunks.map((chunk) => chunk.code).join('\n')
  const rampEntry = rampChunks
    .filter((chunk) => chunk.isEntry)
    .map((chunk) => chunk.code)
    .join('\n')
  for (const marker of ['offramp', 'x-client-id', 'RSASSA-PKCS1-v1_5']) expect(ramp).toContain(marker)
  expect(rampEntry).not.toContain('RSASSA-PKCS1-v1_5')
  expect(gzipped(rampEntry)).toBeLessThan(budgets.createRampClient)
  const smartAccount = await bundle(['createSmartAccountClient'])
  expect(smartAccount).toContain('/userOp/')
  expect(gzipped(smartAccount)).toBeLessThan(budgets.createSmartAccountClient)
  // viem's http and fallback transports: about 9 KB, shared with the viem a page already has.
  const chain = await bundle(['createChainClient'])
  expect(chain).toContain('jsonrpc')
  expect(gzipped(chain)).toBeLessThan(budgets.createChainClient)
})
