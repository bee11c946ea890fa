// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest'
import { connectBrowserWallet, startKit } from './kit.fixture.ts'

/**
 * A browser wallet the user picked: the kit checks each request with the method table and the
 * chains the frame offered at handshake (the fixture's frame offers 31337 and 31338), then sends it
 * to the wallet; the frame is never asked.
 */
let stop = () => {}
afterEach(() => stop())

test('requests for a browser wallet are checked in the page, without a round trip to the frame', async () => {
  const setup = await startKit()
  const wallet = await connectBrowserWallet(setup, ({ method }) =>
    method === 'eth_requestAccounts' ? ['0x000000000000000000000000000000000000dEaD'] : method === 'eth_chainId' ? '0x7a69' : null,
  )
  stop = wallet.stop
  const { asked, connected } = wallet
  expect(connected !== 'timeout' && connected.value).toMatchObject({ result: { chainId: '0x7a69' } })
  const framesCalls = setup.frame.calls.length

  const { provider } = setup.kit
  await expect(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] })).rejects.toMatchObject({
    code: 4902,
    message: 'Chain 1 is not configured for this app',
  })
  await expect(provider.request({ method: 'personal_sign', params: ['0x6869', 'bob'] })).rejects.toMatchObject({
    code: -32602,
    message: 'Invalid params for personal_sign: params[1] must be an address',
  })
  expect(asked).toEqual([])
  expect(await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] })).toBeNull()
  expect(asked).toEqual([{ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] }])
  expect(setup.frame.calls.length).toBe(framesCalls)
})
