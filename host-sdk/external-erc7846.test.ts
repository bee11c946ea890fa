import { describe, expect, test } from 'vitest'
import type { ConnectAnswer } from '../bridge/methods.ts'
import type { ProviderDetail } from './eip6963.ts'
import { createExternal } from './external.ts'

const address = '0x000000000000000000000000000000000000dEaD'
const rpcError = (code: number, message = 'refused') => Object.assign(new Error(message), { code })

/**
 * A browser wallet that records what it is asked: it knows eth_requestAccounts, eth_accounts,
 * eth_chainId and personal_sign (signing as `signing` says), and answers wallet_connect as `connect` says.
 */
function browserWallet(connect: () => unknown, signing: () => unknown = () => '0x5167') {
  const asked: [string, unknown][] = []
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      asked.push([method, params])
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address]
      if (method === 'eth_chainId') return '0x7a69'
      if (method === 'wallet_connect') return connect()
      if (method === 'personal_sign') return signing()
      throw rpcError(4200, 'unsupported')
    },
    on() {},
    removeListener() {},
  }
  return { asked, detail: { info: { uuid: 'u', name: 'W', icon: '', rdns: 'w' }, provider } as unknown as ProviderDetail }
}

/** A browser wallet connected, with the wallet frame's connectAnswer as `frame` answers it (recorded). */
async function connected(wallet: ReturnType<typeof browserWallet>, frame: () => Promise<ConnectAnswer>) {
  const events: [string, unknown][] = []
  const frameAsked: unknown[][] = []
  let ended = 0
  const external = createExternal(
    (event, payload) => events.push([event, payload]),
    () => ended++,
    (...args) => {
      frameAsked.push(args)
      return frame()
    },
  )
  await external.connect(wallet.detail)
  wallet.asked.length = 0
  return { external, events, frameAsked, ended: () => ended }
}

const siweParams = [{ version: '1', capabilities: { signInWithEthereum: { nonce: 'n0nce000001', chainId: '0x7a69' } } }]
const message = 'example.com wants you to sign in with your Ethereum account:\n…'
const signInAnswer = (): ConnectAnswer => [{ accounts: [{ address, capabilities: { signInWithEthereum: { message } } }] }, ['0x6578616d706c65', address]]
const noFrame = () => Promise.reject(new Error('the frame was asked'))

describe('wallet_connect with a browser wallet', () => {
  test('a wallet that knows wallet_connect answers it itself; the frame is not asked', async () => {
    const wallet = browserWallet(() => ({ accounts: [{ address, capabilities: { own: true } }] }))
    const { external, frameAsked } = await connected(wallet, noFrame)
    expect(await external.request({ method: 'wallet_connect', params: siweParams })).toEqual({ accounts: [{ address, capabilities: { own: true } }] })
    expect(wallet.asked.map(([m]) => m)).toEqual(['wallet_connect'])
    expect(frameAsked).toEqual([])
  })

  test.each([4200, -32601])('a wallet that answers %i: without a capability, the frame answers it from the wallet’s accounts', async (code) => {
    const wallet = browserWallet(() => {
      throw rpcError(code)
    })
    const answer: ConnectAnswer = [{ accounts: [{ address, capabilities: {} }] }]
    const { external, frameAsked } = await connected(wallet, async () => answer)
    expect(await external.request({ method: 'wallet_connect', params: [{ version: '1' }] })).toEqual({ accounts: [{ address, capabilities: {} }] })
    expect(await external.request({ method: 'wallet_connect' })).toEqual({ accounts: [{ address, capabilities: {} }] })
    expect(frameAsked).toEqual([
      [[{ version: '1' }], [address]],
      [undefined, [address]],
    ])
    // Nothing to sign: the wallet is only asked for its accounts, never for a signature.
    expect(wallet.asked.map(([m]) => m)).toEqual(['wallet_connect', 'eth_accounts', 'wallet_connect', 'eth_accounts'])
  })

  test('with signInWithEthereum, the message the frame wrote is signed by the wallet’s own personal_sign, once, and answered as ERC-7846 answers', async () => {
    const wallet = browserWallet(() => {
      throw rpcError(4200)
    })
    const { external, frameAsked } = await connected(wallet, async () => signInAnswer())
    expect(await external.request({ method: 'wallet_connect', params: siweParams })).toEqual({
      accounts: [{ address, capabilities: { signInWithEthereum: { message, signature: '0x5167' } } }],
    })
    expect(frameAsked).toEqual([[siweParams, [address]]])
    expect(wallet.asked).toEqual([
      ['wallet_connect', siweParams],
      ['eth_accounts', undefined],
      ['personal_sign', ['0x6578616d706c65', address]],
    ])
  })

  test('the frame refusing the sign-in (another site, chain, a used nonce: -32602) reaches the page, and the wallet is never asked to sign', async () => {
    const wallet = browserWallet(() => {
      throw rpcError(4200)
    })
    const { external } = await connected(wallet, () => Promise.reject(rpcError(-32602, 'signInWithEthereum.domain must be this site’s own')))
    await expect(external.request({ method: 'wallet_connect', params: siweParams })).rejects.toMatchObject({ code: -32602 })
    expect(wallet.asked.map(([m]) => m)).toEqual(['wallet_connect', 'eth_accounts'])
  })

  test('the user rejecting in the wallet reaches the page as 4001', async () => {
    const wallet = browserWallet(
      () => {
        throw rpcError(4200)
      },
      () => {
        throw rpcError(4001, 'User rejected the request.')
      },
    )
    const { external } = await connected(wallet, async () => signInAnswer())
    await expect(external.request({ method: 'wallet_connect', params: siweParams })).rejects.toMatchObject({ code: 4001 })
  })

  test('any other refusal of wallet_connect is the wallet’s own answer, and unsupported methods other than wallet_connect stay unsupported', async () => {
    const wallet = browserWallet(() => {
      throw rpcError(4001, 'User rejected the request.')
    })
    const { external, frameAsked } = await connected(wallet, noFrame)
    await expect(external.request({ method: 'wallet_connect', params: siweParams })).rejects.toMatchObject({ code: 4001 })
    await expect(external.request({ method: 'wallet_getAssets', params: [] })).rejects.toMatchObject({ code: 4200 })
    expect(frameAsked).toEqual([])
  })
})

test('with a browser wallet, wallet_disconnect ends the connection without asking it', async () => {
  const wallet = browserWallet(() => ({ accounts: [] }))
  const { external, events, ended } = await connected(wallet, noFrame)
  expect(await external.request({ method: 'wallet_disconnect' })).toBeNull()
  expect(wallet.asked).toEqual([])
  expect(external.wallet).toBeUndefined()
  expect(ended()).toBe(1)
  expect(events.slice(-2)).toEqual([
    ['accountsChanged', []],
    ['disconnect', expect.objectContaining({ code: 4900 })],
  ])
  // The method table still refuses what is no wallet_connect param, before any wallet gets it.
  expect(() => external.check({ method: 'wallet_connect', params: ['x'] as never }, [31337])).toThrow(expect.objectContaining({ code: -32602 }))
})
