import { describe, expect, test } from 'vitest'
import { maxRecoveryFileBytes, parseRecoveryText, readRecoveryFile } from './recovery-file.ts'

const hex = 'a1'.repeat(32)
const secret0 = `0x${hex}` as const
const file = (parts: BlobPart[], name = 'wallet-recovery-secret.walletkit', type = '') => new File(parts, name, { type })

describe('the recovery file', () => {
  test('the file the wallet offered (the secret alone, text/plain or untyped) gives its secret', async () => {
    expect(await readRecoveryFile(file([secret0]))).toEqual({ secret0 })
    expect(await readRecoveryFile(file([secret0], 'wallet-recovery-secret.walletkit', 'text/plain'))).toEqual({ secret0 })
    // Saved again by an editor: a byte-order mark, CRLF, upper-case hex, a heading line around it.
    expect(await readRecoveryFile(file([`\uFEFFWallet recovery secret\r\n0x${hex.toUpperCase()}\r\n`], 'copy.txt'))).toEqual({ secret0 })
  })

  test('empty, too large, not text: refused for what it is', async () => {
    expect(await readRecoveryFile(file([]))).toEqual({ problem: 'empty' })
    expect(await readRecoveryFile(file(['  \n\t ']))).toEqual({ problem: 'empty' })
    expect(await readRecoveryFile(file(['x'.repeat(maxRecoveryFileBytes + 1)]))).toEqual({ problem: 'tooLarge' })
    expect(await readRecoveryFile(file([secret0], 'photo.png', 'image/png'))).toEqual({ problem: 'wrongType' })
    expect(await readRecoveryFile(file([secret0], 'secret.pdf', 'application/pdf'))).toEqual({ problem: 'wrongType' })
    // A binary file under our name: not UTF-8, or full of control characters.
    expect(await readRecoveryFile(file([new Uint8Array([0xff, 0xfe, 0x00, 0x89, 0x50])]))).toEqual({ problem: 'wrongType' })
    expect(await readRecoveryFile(file([`${secret0}\u0000\u0001`]))).toEqual({ problem: 'wrongType' })
  })

  test('a file over the limit is refused without being read', async () => {
    let read = false
    const huge = {
      size: 50 * 1024 * 1024,
      type: '',
      name: 'wallet-recovery-secret.walletkit',
      arrayBuffer: () => {
        read = true
        return Promise.resolve(new ArrayBuffer(0))
      },
    } as unknown as File
    expect(await readRecoveryFile(huge)).toEqual({ problem: 'tooLarge' })
    expect(read).toBe(false)
  })

  test('a damaged secret: cut short, one digit not hex, one too many, or two different secrets', async () => {
    expect(await readRecoveryFile(file([secret0.slice(0, -1)]))).toEqual({ problem: 'noSecret' })
    expect(await readRecoveryFile(file([`${secret0.slice(0, 30)}g${secret0.slice(31)}`]))).toEqual({ problem: 'noSecret' })
    expect(await readRecoveryFile(file([`${secret0}0`]))).toEqual({ problem: 'noSecret' })
    expect(await readRecoveryFile(file(['secret0=', secret0]))).toEqual({ problem: 'noSecret' })
    expect(await readRecoveryFile(file([`${secret0}\n0x${'b2'.repeat(32)}`]))).toEqual({ problem: 'severalSecrets' })
    // The same secret twice is still one secret.
    expect(await readRecoveryFile(file([`${secret0}\n${secret0}`]))).toEqual({ secret0 })
  })
})

describe('the pasted secret', () => {
  test('with or without 0x, spaces around it', () => {
    expect(parseRecoveryText(`  ${secret0}\n`)).toEqual({ secret0 })
    expect(parseRecoveryText(hex)).toEqual({ secret0 })
  })

  test('nothing, an address, a key with a zero-width or bidi character, a huge paste', () => {
    expect(parseRecoveryText('')).toEqual({ problem: 'empty' })
    expect(parseRecoveryText('0x5FbDB2315678afecb367f032d93F642f64180aa3')).toEqual({ problem: 'noSecret' })
    expect(parseRecoveryText(`${secret0.slice(0, 10)}\u200B${secret0.slice(10)}`)).toEqual({ problem: 'noSecret' })
    expect(parseRecoveryText(`\u202E${secret0}`)).toEqual({ problem: 'noSecret' })
    expect(parseRecoveryText(`${secret0} `.repeat(100_000))).toEqual({ problem: 'tooLarge' })
  })
})
