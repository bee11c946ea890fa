import { expect, test } from 'vitest'
import { readRecoveryFile } from './recovery-file.ts'

// Files a user may be tricked into choosing (or a page into dropping) as the recovery file.

const secret0 = `0x${'c3'.repeat(32)}` as const
const file = (parts: BlobPart[], name: string, type = '') => new File(parts, name, { type })

/** A zip archive holding the secret as one stored (uncompressed) entry: the secret's text is in its bytes. */
function storedZip(name: string, content: string): Uint8Array<ArrayBuffer> {
  const text = new TextEncoder()
  const body = text.encode(content)
  const entry = text.encode(name)
  const header = new Uint8Array(30)
  const view = new DataView(header.buffer)
  view.setUint32(0, 0x04034b50, true)
  view.setUint16(4, 10, true)
  view.setUint32(18, body.length, true)
  view.setUint32(22, body.length, true)
  view.setUint16(26, entry.length, true)
  return new Uint8Array([...header, ...entry, ...body])
}

test('a zip holding the secret is refused unread as a zip, and as text when renamed to our extension', async () => {
  const zip = storedZip('secret.txt', secret0)
  expect(await readRecoveryFile(file([zip], 'backup.zip', 'application/zip'))).toEqual({ problem: 'wrongType' })
  expect(await readRecoveryFile(file([zip], 'wallet-recovery-secret.walletkit'))).toEqual({ problem: 'wrongType' })
  expect(await readRecoveryFile(file([zip], 'notes.txt', 'text/plain'))).toEqual({ problem: 'wrongType' })
})
