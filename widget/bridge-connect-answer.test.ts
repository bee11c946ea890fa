// @vitest-environment happy-dom
import { afterAll, beforeAll, expect, test } from 'vitest'
import { hexToString, type Hex } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { PROTOCOL_VERSION } from '../bridge/index.ts'
import { penpalPeer } from '../bridge/penpal-peer.fixture.ts'
import { serveHost } from './bridge.ts'
import { testContext } from './rpc/context.fixture.ts'
import { setUi } from './wallet.fixture.ts'

/**
 * The bridge method connectAnswer on the real Penpal bridge (widget/bridge.ts): the host page, not
 * trusted, asks the frame for a browser wallet's ERC-7846 answer. Nobody is signed in to the frame.
 */
const hostOrigin = 'http://127.0.0.1:5173'
const t = testContext()
const host = penpalPeer({ role: 'host', origin: hostOrigin })
const frameParent = Object.getOwnPropertyDescriptor(window, 'parent')!
const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

beforeAll(async () => {
  Object.defineProperty(window, 'parent', { value: host.window, configurable: true })
  serveHost({ hostOrigin, admission: { chains: [31337] }, context: Promise.resolve(t.ctx) })
  await host.ready
})

afterAll(() => {
  host.close()
  Object.defineProperty(window, 'parent', frameParent)
})

const connectAnswer = async (...args: unknown[]) => ((await host.call(['connectAnswer'], args)) as { value: unknown }).value
const signIn = (nonce: string, fields: Record<string, unknown> = {}) => [{ capabilities: { signInWithEthereum: { nonce, chainId: '0x7a69', ...fields } } }]

test('before hello it is refused like every bridge method', async () => {
  expect(await connectAnswer(signIn('n0nce0000001'), [wallet])).toMatchObject({ error: { code: 4900 } })
})

test('with no embedded session, a browser wallet connected: the sign-in message for the page’s own site, for the wallet’s account', async () => {
  await host.call(['hello'], [{ protocol: PROTOCOL_VERSION }])
  setUi(t.wallet, { external: { walletId: 'test.wallet', address: wallet } })
  expect(t.wallet.ui.get().session).toBeNull()
  const { result } = (await connectAnswer(signIn('n0nce0000002'), [wallet])) as { result: [unknown, [Hex, string]] }
  const [data, address] = result[1]
  expect(address).toBe(wallet)
  expect(parseSiweMessage(hexToString(data))).toMatchObject({
    domain: '127.0.0.1:5173',
    uri: hostOrigin,
    address: wallet,
    chainId: 31337,
    nonce: 'n0nce0000002',
  })
  expect(result[0]).toEqual({ accounts: [{ address: wallet, capabilities: { signInWithEthereum: { message: hexToString(data) } } }] })
})

test.each([
  ['no arguments', []],
  ['one argument', [signIn('n0nce0000003')]],
  ['three arguments', [signIn('n0nce0000003'), [wallet], 'x']],
  ['params that are no list', [{ capabilities: {} }, [wallet]]],
  ['no accounts', [signIn('n0nce0000003'), []]],
  ['accounts that are no addresses', [signIn('n0nce0000003'), ['0x1234']]],
  ['accounts that are no list', [signIn('n0nce0000003'), wallet]],
  ['too many accounts', [signIn('n0nce0000003'), Array(101).fill(wallet)]],
  ['a capability that is no object', [[{ capabilities: { signInWithEthereum: 'sign me' } }], [wallet]]],
  ['a nonce that is no server random', [signIn('1'), [wallet]]],
  ['two params', [[{}, {}], [wallet]]],
  ['another site', [signIn('n0nce0000004', { domain: 'bank.example' }), [wallet]]],
])('a call with %s is refused -32602', async (_, args) => {
  await host.call(['hello'], [{ protocol: PROTOCOL_VERSION }])
  setUi(t.wallet, { external: { walletId: 'test.wallet', address: wallet } })
  expect(await connectAnswer(...args)).toMatchObject({ error: { code: -32602 } })
})
