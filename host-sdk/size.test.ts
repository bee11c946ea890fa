import { describe, expect, test } from 'vitest'
import { bundle, entryConfig, gzipSize, kitConfig, libConfig } from '../scripts/bundles.ts'

/**
 * The size budget, measured on the same builds that ship (scripts/bundles.ts), gzipped, with
 * 1 KB = 1000 bytes. kit.js is loaded on every page of every host.
 */
const kb = 1000
const code = async (config: Parameters<typeof bundle>[0]) => (await bundle(config)).map((c) => c.code).join('\n')

describe('size budget', () => {
  test('/kit.js (provider, <wallet-kit> and its renderer) ≤ 12 KB gzipped, with no React in it', async () => {
    const kit = await code(kitConfig())
    expect(gzipSize(kit)).toBeLessThanOrEqual(12 * kb)
    expect(kit).not.toMatch(/react\.(element|transitional)|__REACT_DEVTOOLS|preact/i)
    expect(kit).toContain('wallet-kit')
  })

  // 7.5 KB since the host reads the method table itself (each method's param readers: a browser
  // wallet's request is checked without a round trip to the frame) and exports a class per error code;
  // 7.6 KB since a browser wallet that does not know ERC-7846 wallet_connect has it answered by the
  // kit (the frame writes the answer and the sign-in message, the wallet's personal_sign signs it).
  test('the provider alone (`wallet-kit`, every dependency bundled) ≤ 7.6 KB gzipped', async () => {
    const provider = await code(entryConfig('host-sdk/index.ts'))
    expect(gzipSize(provider)).toBeLessThanOrEqual(7.6 * kb)
    expect(provider).not.toContain('customElements')
  })

  test('`wallet-kit/react` imports React and never bundles it; `wallet-kit/element` needs no React', async () => {
    const chunks = await bundle(libConfig(false))
    const file = (name: string) => chunks.find((c) => c.fileName === name)!.code
    expect(file('react.js')).toMatch(/from\s*["']react["']/)
    expect(file('element.js')).not.toMatch(/from\s*["']react/)
    const all = chunks.map((c) => c.code).join('\n')
    expect(all).toMatch(/from\s*["']react\/jsx-runtime["']/)
    expect(all).not.toMatch(/react\.(element|transitional)|__REACT_DEVTOOLS/)
  })
})
