import { describe, expect, test } from 'vitest'
import { createExternal } from './external.ts'

/**
 * Red-team findings on the browser-wallet route (they fail until fixed). The kit checks a request
 * itself before a browser wallet gets it, with the method table and the chains the frame offered at
 * handshake, and says a browser wallet "never gets bad params" nor a chain the app does not offer.
 */
const offered = [31337]
const external = createExternal(
  () => {},
  () => {},
  () => Promise.reject(new Error('no wallet frame in this test')),
)
const outcome = (method: string, params: unknown): string | number => {
  try {
    external.check({ method, params: params as never }, offered)
    return 'passed'
  } catch (err) {
    return (err as { code?: number }).code ?? 'threw'
  }
}
const alice = '0x000000000000000000000000000000000000a11c'

describe('the browser-wallet route', () => {
  test('a hole where a required param goes is -32602 (structured clone keeps it; the wallet would get it)', () => {
    // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
    expect(outcome('personal_sign', structuredClone([, alice]))).toBe(-32602)
    // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
    expect(outcome('wallet_switchEthereumChain', structuredClone([,]))).toBe(-32602)
  })

  test('EIP-5792 calls pinned to a chain the page is not offered are 4902, as a switch to it is', () => {
    // wallet_sendCalls names its chain: a wallet that supports it sends the calls there, without a switch.
    expect(outcome('wallet_switchEthereumChain', [{ chainId: '0x1' }])).toBe(4902)
    expect(outcome('wallet_sendCalls', [{ chainId: '0x1', from: alice, calls: [{ to: alice, value: '0x1' }] }])).toBe(4902)
  })
})
