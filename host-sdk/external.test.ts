import { describe, expect, test } from 'vitest'
import { createExternal } from './external.ts'

/**
 * What the kit checks before a request goes to a browser wallet (no round trip to the frame): the
 * method table's 4200 and -32602, and 4902 for a chain this page is not offered (the chains the
 * frame sent at handshake), whatever the page named.
 */
const code = (run: () => void) => {
  try {
    run()
    return 'passed'
  } catch (err) {
    return (err as { code?: number }).code
  }
}
const offered = [31337, 31338]
const external = createExternal(
  () => {},
  () => {},
)
const check = (method: string, params?: unknown) => code(() => external.check(params === undefined ? { method } : { method, params: params as never }, offered))

describe('a request for a browser wallet', () => {
  test("a chain switch to a chain the page is not offered is 4902, in the frame's words; the offered chains pass", () => {
    for (const method of ['wallet_switchEthereumChain', 'wallet_addEthereumChain']) {
      expect(check(method, [{ chainId: '0x1' }]), method).toBe(4902)
      expect(check(method, [{ chainId: '0x7a6a' }]), method).toBe('passed')
      // A chain id too large for a number is no chain at all: the method table's -32602.
      expect(check(method, [{ chainId: `0x${'f'.repeat(64)}` }]), method).toBe(-32602)
    }
    expect(() => external.check({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }, offered)).toThrow(
      expect.objectContaining({ code: 4902, message: 'Chain 1 is not configured for this app' }),
    )
    expect(code(() => external.check({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] }, []))).toBe(4902)
  })

  test('other methods are checked by the method table only: bad params are -32602, unknown methods 4200', () => {
    expect(check('personal_sign', ['0x6869', '0x000000000000000000000000000000000000dEaD'])).toBe('passed')
    expect(check('eth_blockNumber')).toBe('passed')
    expect(check('wallet_switchEthereumChain', [{}])).toBe(-32602)
    expect(check('personal_sign', ['0x6869'])).toBe(-32602)
    expect(check('anvil_setBalance', [])).toBe(4200)
    expect(() => external.check({ method: 'personal_sign', params: ['0x6869', 'bob'] }, offered)).toThrow(
      expect.objectContaining({ name: 'ProviderRpcError', code: -32602, message: 'Invalid params for personal_sign: params[1] must be an address' }),
    )
  })
})
