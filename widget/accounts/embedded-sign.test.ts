import { stringToHex, toHex } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import { signMessage } from './embedded-sign.ts'

const signed = () => vi.fn(async (_params: { network: string; message: string }) => ({ signature: '0x03' }))

describe('personal_sign on the embedded wallet: the service signs the exact bytes, never a hash the frame made', () => {
  test('readable text goes as text; bytes that are not text, and text that looks like hex, go as the 0x-hex of the bytes', async () => {
    const wallet = { signMessage: signed() }
    const binary = toHex(new Uint8Array([0xff, 0xfe, 0x00, 0x01]))
    const hexLooking = stringToHex('0xdeadbeef')
    for (const bytes of [stringToHex('hello there'), binary, hexLooking]) expect(await signMessage({ wallet } as never, 'local-1', bytes)).toBe('0x03')
    expect(wallet.signMessage.mock.calls).toEqual([
      [{ network: 'local-1', message: 'hello there' }],
      [{ network: 'local-1', message: binary }],
      [{ network: 'local-1', message: hexLooking }],
    ])
  })

  test('bytes past what the service takes (32,000) are refused with a clear error before any call', async () => {
    const wallet = { signMessage: signed() }
    const fits = toHex(new Uint8Array(32_000).fill(0xff))
    expect(await signMessage({ wallet } as never, 'local-1', fits)).toBe('0x03')
    await expect(signMessage({ wallet } as never, 'local-1', toHex(new Uint8Array(32_001).fill(0xff)))).rejects.toThrow(/too long to sign/)
    expect(wallet.signMessage).toHaveBeenCalledTimes(1)
  })
})
