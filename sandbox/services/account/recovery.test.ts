import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { decrypt, encrypt, loadKeys } from '../../infra/keys.ts'
import { combineShares, splitKey } from './recovery.ts'

describe('recovery shares', () => {
  test('secret0 and the server share rebuild the key; neither alone is the key', () => {
    const privateKey = generatePrivateKey()
    const address = privateKeyToAddress(privateKey)
    const { secret0, serverShare } = splitKey(privateKey)
    expect(secret0).toMatch(/^0x[0-9a-f]{64}$/)
    expect(secret0).not.toBe(privateKey)
    expect(Buffer.from(serverShare).toString('hex')).not.toBe(privateKey.slice(2))
    expect(combineShares(secret0, serverShare, address)).toBe(privateKey)
  })

  test('a wrong secret does not recover the wallet', () => {
    const privateKey = generatePrivateKey()
    const { serverShare } = splitKey(privateKey)
    expect(combineShares(generatePrivateKey(), serverShare, privateKeyToAddress(privateKey))).toBeUndefined()
    expect(combineShares('0x1234', serverShare, privateKeyToAddress(privateKey))).toBeUndefined()
  })
})

describe('keys at rest', () => {
  test('AES-GCM round trip, bound to its context', () => {
    const key = Uint8Array.from(randomBytes(32))
    const sealed = encrypt(key, new TextEncoder().encode('secret'), 'wallet-key:1')
    expect(new TextDecoder().decode(decrypt(key, sealed, 'wallet-key:1'))).toBe('secret')
    expect(() => decrypt(key, sealed, 'wallet-key:2')).toThrow()
    expect(() => decrypt(Uint8Array.from(randomBytes(32)), sealed, 'wallet-key:1')).toThrow()
  })

  test('keys are generated once into the data folder, or taken from SANDBOX_MASTER_KEY', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-kit-keys-'))
    try {
      const first = loadKeys(dir, undefined)
      const second = loadKeys(dir, undefined)
      expect(second.masterKey).toEqual(first.masterKey)
      expect(second.jwtKey).toEqual(first.jwtKey)
      expect(readFileSync(join(dir, 'master.key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/)
      const fromEnv = loadKeys(dir, 'ab'.repeat(32))
      expect(Buffer.from(fromEnv.masterKey).toString('hex')).toBe('ab'.repeat(32))
      expect(() => loadKeys(dir, 'short')).toThrow('SANDBOX_MASTER_KEY must be 32 bytes')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
