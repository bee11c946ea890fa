// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest'
import { announce, kitInfo, type ProviderDetail } from './eip6963.ts'
import { createExternal, watchWallets } from './external.ts'
import type { EIP1193Provider } from './provider.ts'

const cleanup: (() => void)[] = []
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn()
  delete (window as { ethereum?: unknown }).ethereum
})

/** A browser wallet in the page: answers from a table and emits events on request. */
function fakeWallet(answers: Record<string, unknown> = {}) {
  const listeners = new Map<string, Set<(p: unknown) => void>>()
  const asked: string[] = []
  const provider = {
    async request({ method }: { method: string }) {
      asked.push(method)
      if (method in answers) return answers[method]
      throw Object.assign(new Error('nope'), { code: 4200 })
    },
    on: (e: string, fn: (p: unknown) => void) => listeners.set(e, (listeners.get(e) ?? new Set()).add(fn)),
    removeListener: (e: string, fn: (p: unknown) => void) => listeners.get(e)?.delete(fn),
  }
  const emit = (e: string, p: unknown) => {
    for (const fn of listeners.get(e) ?? []) fn(p)
  }
  return { provider: provider as unknown as EIP1193Provider, asked, emit, listeners }
}

const own = fakeWallet().provider
const info = (name: string, icon = 'data:image/png;base64,AAAA') => ({ uuid: `${name}-uuid`, name, icon, rdns: `com.${name.toLowerCase()}` })

describe('EIP-6963 discovery of browser wallets', () => {
  test('wallets announced before and after are listed once each; the kit itself is not', () => {
    cleanup.push(announce(info('Early'), fakeWallet().provider))
    let changes = 0
    const wallets = watchWallets(own, () => changes++)
    cleanup.push(wallets.stop, announce(kitInfo(), own))
    const late = fakeWallet().provider
    cleanup.push(announce(info('Late', 'javascript:alert(1)'), late))
    // EIP-6963 icons are data URIs; the frame loads no image from elsewhere (its CSP).
    cleanup.push(announce(info('Remote', 'https://tracker.example/icon.png'), fakeWallet().provider))
    window.dispatchEvent(new Event('eip6963:requestProvider')) // everyone answers again
    expect(wallets.descriptors()).toEqual([
      { id: 'com.early', name: 'Early', icon: 'data:image/png;base64,AAAA', connector: 'injected', installed: true, rdns: 'com.early' },
      { id: 'com.late', name: 'Late', icon: expect.stringMatching(/^data:image\/svg\+xml,/), connector: 'injected', installed: true, rdns: 'com.late' },
      { id: 'com.remote', name: 'Remote', icon: expect.stringMatching(/^data:image\/svg\+xml,/), connector: 'injected', installed: true, rdns: 'com.remote' },
    ])
    expect(changes).toBe(2) // Late and Remote; Early was in the first list
    expect(wallets.find('com.late')?.provider).toBe(late)
    expect(wallets.find('dev.walletkit')).toBeUndefined()
  })

  test('a wallet already in the page is in the first list, not a change reported before watchWallets returns', () => {
    cleanup.push(announce(info('Early'), fakeWallet().provider))
    const seen: string[][] = []
    // As in kit.ts: the callback reads the list, which does not exist before watchWallets returns.
    const wallets = watchWallets(own, () => seen.push(wallets.descriptors().map((d) => d.name)))
    cleanup.push(wallets.stop)
    expect(wallets.descriptors().map((d) => d.name)).toEqual(['Early'])
    cleanup.push(announce(info('Late'), fakeWallet().provider))
    expect(seen).toEqual([['Early', 'Late']])
  })

  test('a legacy window.ethereum is offered only when nothing announces itself', () => {
    const legacy = fakeWallet().provider
    Object.assign(window, { ethereum: legacy })
    const wallets = watchWallets(own, () => {})
    cleanup.push(wallets.stop)
    expect(wallets.descriptors()).toMatchObject([{ id: 'injected', name: 'Browser Wallet', connector: 'injected', installed: true }])
    expect(wallets.find('injected')?.provider).toBe(legacy)
    cleanup.push(announce(info('Modern'), fakeWallet().provider))
    expect(wallets.descriptors().map((d) => d.name)).toEqual(['Modern'])
  })

  test('malformed announcements are ignored', () => {
    const wallets = watchWallets(own, () => {})
    cleanup.push(wallets.stop)
    for (const detail of [null, {}, { info: info('X') }, { info: { name: 'No uuid' }, provider: own }, { info: info('Y'), provider: {} }])
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
    expect(wallets.descriptors()).toEqual([])
  })

  test('our own announcement: frozen, with a v4 uuid, answered on every request', () => {
    const seen: ProviderDetail[] = []
    const listener = (e: Event) => seen.push((e as CustomEvent).detail)
    window.addEventListener('eip6963:announceProvider', listener)
    cleanup.push(() => window.removeEventListener('eip6963:announceProvider', listener))
    const stop = announce(kitInfo(), own)
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    stop()
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(seen).toHaveLength(2)
    expect(Object.isFrozen(seen[0])).toBe(true)
    expect(seen[0]!.info.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(kitInfo().uuid).not.toBe(kitInfo().uuid)
  })
})

describe('routing to the chosen browser wallet', () => {
  const account = '0x000000000000000000000000000000000000dEaD'
  const setup = () => {
    const events: unknown[] = []
    let ended = 0
    const external = createExternal(
      (event, payload) => events.push([event, payload]),
      () => ended++,
      () => Promise.reject(new Error('no wallet frame in this test')),
    )
    return { external, events, ended: () => ended }
  }

  test('connect asks the wallet, forwards its events and requests until it drops every account', async () => {
    const { external, events, ended } = setup()
    const wallet = fakeWallet({ eth_requestAccounts: [account], eth_chainId: '0x7a69', personal_sign: '0xsig' })
    const detail = { info: info('W'), provider: wallet.provider }
    expect(await external.connect(detail)).toEqual({ accounts: [account], chainId: '0x7a69' })
    expect(external.wallet).toBe(detail)
    expect(await external.request({ method: 'personal_sign', params: ['0x68', account] })).toBe('0xsig')
    wallet.emit('chainChanged', '0x1')
    wallet.emit('message', { type: 'x' })
    wallet.emit('accountsChanged', [])
    expect(external.wallet).toBeUndefined()
    expect(ended()).toBe(1)
    expect(events).toEqual([
      ['chainChanged', '0x7a69'],
      ['connect', { chainId: '0x7a69' }],
      ['accountsChanged', [account]],
      ['chainChanged', '0x1'],
      ['message', { type: 'x' }],
      ['accountsChanged', []],
      ['disconnect', { code: 4900, message: 'Disconnected from the browser wallet' }],
    ])
    expect([...wallet.listeners.values()].every((set) => set.size === 0)).toBe(true)
  })

  test('a wallet that refuses the connection changes nothing; its 4001 reaches the widget', async () => {
    const { external, events } = setup()
    const wallet = fakeWallet()
    wallet.provider.request = () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 }))
    await expect(external.connect({ info: info('W'), provider: wallet.provider })).rejects.toMatchObject({ code: 4001 })
    expect(external.wallet).toBeUndefined()
    expect(events).toEqual([])
  })

  test('end() stops the routing; the old wallet is no longer heard', async () => {
    const { external, events } = setup()
    const wallet = fakeWallet({ eth_requestAccounts: [account], eth_chainId: '0x7a69' })
    await external.connect({ info: info('W'), provider: wallet.provider })
    external.end()
    external.end()
    wallet.emit('accountsChanged', ['0x1'])
    expect(events.slice(3)).toEqual([
      ['accountsChanged', []],
      ['disconnect', { code: 4900, message: 'Disconnected from the browser wallet' }],
    ])
  })

  test('a request that arrives after the wallet went (it ended while the frame checked the request) is 4900, not a TypeError', async () => {
    const { external } = setup()
    const wallet = fakeWallet({ eth_requestAccounts: [account], eth_chainId: '0x7a69', personal_sign: '0xsig' })
    await external.connect({ info: info('W'), provider: wallet.provider })
    external.end()
    await expect(external.request({ method: 'personal_sign', params: ['0x68', account] })).rejects.toMatchObject({
      name: 'ProviderRpcError',
      code: 4900,
      message: 'Disconnected from the browser wallet',
    })
  })
})

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
  () => Promise.reject(new Error('no wallet frame in this test')),
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
