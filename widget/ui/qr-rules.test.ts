import qrcode from 'qrcode-generator'
import { describe, expect, test } from 'vitest'
import { qrErrorCorrection, qrMaxBytes, qrProblem } from './qr-rules.ts'

describe('QR rules (version 1 to 40, error correction M)', () => {
  test("empty input is 'No input text'; more than a version-40 code holds is 'too big'", () => {
    expect(qrProblem('')).toBe('No input text')
    expect(qrProblem('a'.repeat(qrMaxBytes))).toBeNull()
    expect(qrProblem('a'.repeat(qrMaxBytes + 1))).toBe('The amount of data is too big to be stored in a QR Code')
    // Bytes, not characters: 1,166 two-byte characters are 2,332 bytes.
    expect(qrProblem('é'.repeat(1166))).toBe('The amount of data is too big to be stored in a QR Code')
  })

  test("the limit is the QR library's own: the largest input that fits makes a version-40 code, one byte more cannot be made", () => {
    const make = (n: number) => {
      const code = qrcode(0, qrErrorCorrection)
      code.addData('a'.repeat(n), 'Byte')
      code.make()
      return code.getModuleCount()
    }
    expect(make(qrMaxBytes)).toBe(177) // 4 × 40 + 17 modules: version 40
    expect(() => make(qrMaxBytes + 1)).toThrow(/overflow/)
  })
})
