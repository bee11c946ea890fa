import { expect, test } from 'vitest'
import type { ProviderDetail } from './eip6963.ts'
import { createExternal } from './external.ts'

/** A browser wallet that records what it is asked and knows eth_requestAccounts, eth_chainId and wallet_connect. */
function browserWallet() {
  const asked: string[] = []
  const provider = {
    async request({ method }: { method: string }) {
      asked.push(method)
      if (method === 'eth_requestAccounts') return ['0x000000000000000000000000000000000000dEaD']
      if (method === 'eth_chainId') return '0x7a69'
      if (method === 'wallet_connect') return { accounts: [] }
      throw Object.assign(new Error('unsupported'), { code: 4200 })
    },
    on() {},
    removeListener() {},
  }
  return { asked, detail: { info: { uuid: 'u', name: 'W', icon: '', rdns: 'w' }, provider } as unknown as ProviderDetail }
}

test('with a browser wallet, wallet_disconnect ends the connection without asking it; wallet_connect is its own to answer', async () => {
  const events: [string, unknown][] = []
  let ended = 0
  const external = createExternal(
    (event, payload) => events.push([event, payload]),
    () => ended++,
  )
  const { asked, detail } = browserWallet()
  await external.connect(detail)
  external.check({ method: 'wallet_connect', params: [{ version: '1', capabilities: {} }] }, [31337])
  expect(await external.request({ method: 'wallet_connect', params: [{ version: '1' }] as never })).toEqual({ accounts: [] })
  expect(await external.request({ method: 'wallet_disconnect' })).toBeNull()
  expect(asked).toEqual(['eth_requestAccounts', 'eth_chainId', 'wallet_connect'])
  expect(external.wallet).toBeUndefined()
  expect(ended).toBe(1)
  expect(events.slice(-2)).toEqual([
    ['accountsChanged', []],
    ['disconnect', expect.objectContaining({ code: 4900 })],
  ])
  // The method table still refuses what is no wallet_connect param, before any wallet gets it.
  expect(() => external.check({ method: 'wallet_connect', params: ['x'] as never }, [31337])).toThrow(expect.objectContaining({ code: -32602 }))
})
