import { expect, test } from 'vitest'
import type { ConnectAnswer } from '../bridge/methods.ts'
import type { ProviderDetail } from './eip6963.ts'
import { createExternal } from './external.ts'

/**
 * A hostile browser wallet against the host's wallet_connect for a wallet that does not know it:
 * it throws odd values, or answers 4200 and then odd accounts. The page must get an EIP-1193
 * answer or error it can read, and the connection stays as it was. Each test fails if the attack works.
 */
const address = '0x000000000000000000000000000000000000dEaD'
const params = [{ version: '1', capabilities: { signInWithEthereum: { nonce: 'n0nce000001', chainId: '0x7a69' } } }]
const signInAnswer = (): ConnectAnswer => [{ accounts: [{ address, capabilities: { signInWithEthereum: { message: 'm' } } }] }, ['0x6d', address]]

/** A wallet that refuses wallet_connect as `refuse` says and answers eth_accounts as told. */
function hostile(options: { refuse?: () => never; accounts?: () => unknown }) {
  const provider = {
    async request({ method }: { method: string }) {
      if (method === 'eth_requestAccounts') return [address]
      if (method === 'eth_accounts') return options.accounts ? options.accounts() : [address]
      if (method === 'eth_chainId') return '0x7a69'
      if (method === 'personal_sign') return '0x5167'
      if (method === 'wallet_connect' && options.refuse) options.refuse()
      throw Object.assign(new Error('unsupported'), { code: 4200 })
    },
    on() {},
    removeListener() {},
  }
  return { info: { uuid: 'u', name: 'W', icon: '', rdns: 'w' }, provider } as unknown as ProviderDetail
}

async function connected(wallet: ProviderDetail, frame: (accounts: unknown) => Promise<ConnectAnswer>) {
  const events: unknown[] = []
  let ended = 0
  const external = createExternal(
    (event, payload) => events.push([event, payload]),
    () => ended++,
    (_, accounts) => frame(accounts),
  )
  await external.connect(wallet)
  events.length = 0
  return { external, events, ended: () => ended }
}

test.each([
  ['null', null],
  ['undefined', undefined],
  ['a string', 'nope'],
  ['a number', 4200],
])('a wallet that throws %s for wallet_connect: the page gets what the wallet threw, not a TypeError of the kit', async (_, thrown) => {
  const frameAsked: unknown[] = []
  const { external, events, ended } = await connected(
    hostile({
      refuse: () => {
        throw thrown
      },
    }),
    async (accounts) => {
      frameAsked.push(accounts)
      return signInAnswer()
    },
  )
  const error = await external.request({ method: 'wallet_connect', params }).then(
    () => 'answered',
    (e: unknown) => e,
  )
  expect(error).toBe(thrown)
  expect(frameAsked).toEqual([])
  // The connection stays as it was.
  expect(external.wallet).toBeDefined()
  expect(events).toEqual([])
  expect(ended()).toBe(0)
})

test('a wallet’s accounts go to the frame as the wallet gave them (the frame refuses odd ones), and its refusal reaches the page unchanged', async () => {
  const odd = [
    {
      get address() {
        return address
      },
    },
    1,
  ]
  const seen: unknown[] = []
  const { external } = await connected(hostile({ accounts: () => odd }), async (accounts) => {
    seen.push(accounts)
    throw Object.assign(new Error('Invalid arguments for connectAnswer: accounts must be 1 to 100 addresses'), { code: -32602 })
  })
  await expect(external.request({ method: 'wallet_connect', params })).rejects.toMatchObject({ code: -32602 })
  expect(seen).toEqual([odd])
  expect(external.wallet).toBeDefined()
})
