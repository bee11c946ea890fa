import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { build } from 'vite'

const index = fileURLToPath(new URL('./index.ts', import.meta.url))

/** Bundles a page that imports the given names from the sdk entry, the way an app build would. */
async function bundle(names: string[]): Promise<string> {
  const entry = '\0page'
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'page',
        resolveId: (id) => (id === 'page' ? entry : undefined),
        load: (id) =>
          id === entry
            ? `import { ${names.join(', ')} } from ${JSON.stringify(index)}\nglobalThis.page = [${names.join(", ")}]`
            : undefined,
      },
    ],
    build: { write: false, minify: false, target: 'es2022', rollupOptions: { input: 'page' } },
  })
  const results = Array.isArray(output) ? output : [output]
  return results
    .flatMap((result) => ('output' in result ? result.output : []))
    .map((chunk) => ('code' in chunk ? chunk.code : ''))
    .join('\n')
}

test('a page using only the wallet client does not ship the ramp or smart-account clients', async () => {
  const walletOnly = await bundle(['createWalletClient'])
  expect(walletOnly).toContain('/wallet/send-transaction')
  for (const marker of ['offramp', 'x-client-id', 'RSASSA-PKCS1-v1_5', '/userOp/', 'jsonrpc']) {
    expect(walletOnly).not.toContain(marker)
  }
})

test('the markers are real: a page using the ramp client ships them', async () => {
  const ramp = await bundle(['createRampClient'])
  for (const marker of ['offramp', 'x-client-id', 'RSASSA-PKCS1-v1_5']) expect(ramp).toContain(marker)
  expect(await bundle(['createSmartAccountClient'])).toContain('/userOp/')
  expect(await bundle(['createChainClient'])).toContain('jsonrpc')
})
