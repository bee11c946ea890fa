import { describe, expect, test } from 'vitest'
import { timeouts, type RpcRequest } from '../bridge/index.ts'
import { ProviderRpcError } from './errors.ts'
import { createProvider } from './provider.ts'

/** A provider whose route records what it was asked to send. */
function setup(chains: readonly number[] = [31337, 31338]) {
  const sent: [RpcRequest, number | undefined][] = []
  const made = createProvider(chains, async (request, timeout) => {
    sent.push([request, timeout])
    return 'ok'
  })
  return { ...made, sent }
}

const fails = (promise: Promise<unknown>) =>
  promise.then(
    () => ({}),
    (e: ProviderRpcError) => ({ name: e.name, code: e.code, message: e.message }),
  )

describe('request', () => {
  test('a good request is sent with only method and params, and the timeout of its kind', async () => {
    const { provider, sent } = setup()
    await provider.request({ method: 'eth_chainId', jsonrpc: '2.0', id: 7 } as RpcRequest)
    await provider.request({ method: 'personal_sign', params: ['0x6869', '0x000000000000000000000000000000000000dEaD'] })
    await provider.request({ method: 'eth_requestAccounts' })
    expect(sent).toEqual([
      [{ method: 'eth_chainId' }, timeouts.read],
      [{ method: 'personal_sign', params: ['0x6869', '0x000000000000000000000000000000000000dEaD'] }, timeouts.sign],
      [{ method: 'eth_requestAccounts' }, undefined],
    ])
  })

  test.each([
    [null, -32602, 'Invalid request: request must be an object'],
    [{ method: '' }, -32602, 'Invalid request: method must be a non-empty string'],
    [{ method: 'eth_chainId', params: 'x' }, -32602, 'Invalid request: params must be an array or an object'],
    [{ method: 'eth_sign', params: [] }, 4200, 'Unsupported method: eth_sign'],
    [
      { method: 'eth_sendUnsignedTransaction', params: [{ from: '0x000000000000000000000000000000000000dEaD' }] },
      4200,
      'Unsupported method: eth_sendUnsignedTransaction',
    ],
    [{ method: 'anvil_setBalance', params: [] }, 4200, 'Unsupported method: anvil_setBalance'],
    [{ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }, 4902, 'Unrecognized chain 0x1: this app offers 31337, 31338'],
    [{ method: 'wallet_addEthereumChain', params: [{ chainId: '0x89', chainName: 'Polygon' }] }, 4902, 'Unrecognized chain 0x89: this app offers 31337, 31338'],
  ])('%j is refused with %i before anything is sent', async (request, code, message) => {
    const { provider, sent } = setup()
    expect(await fails(provider.request(request as RpcRequest))).toEqual({ name: 'ProviderRpcError', code, message })
    expect(sent).toEqual([])
  })

  test("a method's params are the frame's to check (the same registry): sent on", async () => {
    const { provider, sent } = setup()
    await provider.request({ method: 'personal_sign', params: ['0x'] })
    expect(sent).toEqual([[{ method: 'personal_sign', params: ['0x'] }, timeouts.sign]])
  })

  test('switching to a configured chain is sent', async () => {
    const { provider, sent } = setup()
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] })
    expect(sent).toHaveLength(1)
  })

  test('what is checked is what is sent: one copy, read once (a getter that answers another chain the second time, a later change)', async () => {
    for (const chains of [[31337, 31338], []]) {
      const { provider, sent } = setup(chains)
      let reads = 0
      const shifty = {
        get chainId() {
          return reads++ === 0 ? '0x7a6a' : '0x1'
        },
      }
      const params: unknown[] = [shifty]
      const pending = provider.request({ method: 'wallet_switchEthereumChain', params })
      params[0] = { chainId: '0x1' }
      await pending
      expect(sent).toEqual([[{ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] }, timeouts.chain]])
      expect(reads).toBe(1)
    }
  })

  test('a request that cannot be copied (a function in it) is -32602, and nothing is sent', async () => {
    const { provider, sent } = setup()
    const answer = await fails(provider.request({ method: 'personal_sign', params: ['0x6869', () => '0x'] }))
    expect(answer).toMatchObject({ name: 'ProviderRpcError', code: -32602 })
    expect((answer as { message: string }).message).toMatch(/^Invalid request: /)
    expect(sent).toEqual([])
  })

  test("a page that names no chains leaves every chain to the frame (the app's settings): sent on", async () => {
    const { provider, sent } = setup([])
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xaa36a7' }] })
    await provider.request({ method: 'wallet_addEthereumChain', params: [{ chainId: '0x1' }] })
    expect(sent.map(([request]) => request)).toEqual([
      { method: 'wallet_switchEthereumChain', params: [{ chainId: '0xaa36a7' }] },
      { method: 'wallet_addEthereumChain', params: [{ chainId: '0x1' }] },
    ])
  })
})

describe('events', () => {
  test('on / removeListener; account and chain changes are emitted once per change', () => {
    const { provider, emit } = setup()
    const seen: unknown[] = []
    const listener = (event: string) => (payload: unknown) => seen.push([event, payload])
    const accounts = listener('accountsChanged')
    provider.on('accountsChanged', accounts as never)
    provider.on('chainChanged', listener('chainChanged') as never)
    provider.on('connect', listener('connect') as never)

    emit('accountsChanged', ['0xa'])
    emit('accountsChanged', ['0xa'])
    emit('connect', { chainId: '0x7a69' })
    emit('chainChanged', '0x7a69') // already known from connect
    emit('chainChanged', '0x7a6a')
    emit('accountsChanged', [])
    provider.removeListener('accountsChanged', accounts as never)
    emit('accountsChanged', ['0xb'])
    expect(seen).toEqual([
      ['accountsChanged', ['0xa']],
      ['connect', { chainId: '0x7a69' }],
      ['chainChanged', '0x7a6a'],
      ['accountsChanged', []],
    ])
  })

  test('disconnect carries a ProviderRpcError; a throwing listener does not stop the others', () => {
    const { provider, emit } = setup()
    const errors: ProviderRpcError[] = []
    const original = console.error
    console.error = () => {}
    provider.on('disconnect', (() => {
      throw new Error('listener bug')
    }) as never)
    provider.on('disconnect', ((e: ProviderRpcError) => errors.push(e)) as never)
    emit('disconnect', { code: 4900, message: 'Disconnected from the browser wallet' })
    emit('disconnect', null)
    console.error = original
    expect(errors.map((e) => [e instanceof ProviderRpcError, e.code, e.message])).toEqual([
      [true, 4900, 'Disconnected from the browser wallet'],
      [true, 4900, 'Disconnected'],
    ])
  })
})
