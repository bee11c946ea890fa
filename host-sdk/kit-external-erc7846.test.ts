// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest'
import { checkCall, widgetChecks } from '../bridge/serve.ts'
import { connectBrowserWallet, startKit } from './kit.fixture.ts'

/**
 * The kit's wiring of a browser wallet's ERC-7846 wallet_connect: a wallet that does not know it
 * (4200) has it answered through one bridge call, `connectAnswer` with the request's params and the
 * wallet's accounts, checked with the frame's real table; the wallet's personal_sign signs what the
 * frame says. The fixture's frame answers as the frame does (widget/rpc/wallet_connect.ts).
 */
let stop = () => {}
afterEach(() => stop())

const address = '0x000000000000000000000000000000000000dEaD'
const params = [{ version: '1', capabilities: { signInWithEthereum: { nonce: 'n0nce000001', chainId: '0x7a69' } } }]

test('a browser wallet without wallet_connect: the frame is asked once for the answer and the message, the wallet signs it', async () => {
  const setup = await startKit()
  setup.frame.reply = (name) => {
    if (name !== 'connectAnswer') return undefined
    const args = setup.frame.calls.at(-1)!.args as unknown[]
    const refused = checkCall(widgetChecks, name, args)
    if (refused) return { value: refused }
    return { value: { result: [{ accounts: [{ address, capabilities: { signInWithEthereum: { message: 'm' } } }] }, ['0x6d', address]] } }
  }
  const wallet = await connectBrowserWallet(setup, ({ method }) => {
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address]
    if (method === 'eth_chainId') return '0x7a69'
    if (method === 'personal_sign') return '0x5167'
    throw Object.assign(new Error('unsupported'), { code: 4200 })
  })
  stop = wallet.stop
  const { asked } = wallet

  expect(await setup.kit.provider.request({ method: 'wallet_connect', params })).toEqual({
    accounts: [{ address, capabilities: { signInWithEthereum: { message: 'm', signature: '0x5167' } } }],
  })
  expect(setup.frame.calls.filter((c) => (c.methodPath as string[])[0] === 'connectAnswer').map((c) => c.args)).toEqual([[params, [address]]])
  expect(asked).toEqual([{ method: 'wallet_connect', params }, { method: 'eth_accounts' }, { method: 'personal_sign', params: ['0x6d', address] }])
})
