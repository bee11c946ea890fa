import * as Provider from 'ox/Provider'
import * as RpcResponse from 'ox/RpcResponse'
import { describe, expect, test } from 'vitest'
import { type ProviderErrorClass, ProviderRpcError, toProviderError } from '../bridge/error-classes.ts'
import { ErrorCode, timeouts, type RpcRequest } from '../bridge/index.ts'
import * as entry from './index.ts'
import { createProvider, unwrap } from './provider.ts'

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

/** The vocabulary as a dapp imports it from `wallet-kit`, beside ox's class of the same name (the widget throws ox's). */
const vocabulary = [
  ['UserRejectedRequestError', 4001, Provider.UserRejectedRequestError],
  ['UnauthorizedError', 4100, Provider.UnauthorizedError],
  ['UnsupportedMethodError', 4200, Provider.UnsupportedMethodError],
  ['DisconnectedError', 4900, Provider.DisconnectedError],
  ['ChainDisconnectedError', 4901, Provider.ChainDisconnectedError],
  ['SwitchChainError', 4902, Provider.SwitchChainError],
  ['InvalidParamsError', -32602, RpcResponse.InvalidParamsError],
  ['InternalError', -32603, RpcResponse.InternalError],
  ['LimitExceededError', -32005, RpcResponse.LimitExceededError],
  ['UnknownBundleIdError', 5730, Provider.UnknownBundleIdError],
  ['AtomicityNotSupportedError', 5760, Provider.AtomicityNotSupportedError],
] as const

const exported = (name: string) => (entry as unknown as Record<string, ProviderErrorClass<number>>)[name]!
const classes = vocabulary.map(([name]) => exported(name))

describe('the error vocabulary of the `wallet-kit` entry', () => {
  test.each(vocabulary)('%s: code %i on the class and on its instances, the same as ox gives it', (name, code, ox) => {
    const Class = exported(name)
    expect(Class.code).toBe(code)
    expect(ox.code).toBe(code)
    const error = new Class({ message: 'why', data: { detail: 1 } })
    expect(error).toBeInstanceOf(Class)
    expect(error).toBeInstanceOf(entry.ProviderRpcError)
    expect(error).toBeInstanceOf(Error)
    expect({ name: error.name, code: error.code, message: error.message, data: error.data }).toEqual({
      name: 'ProviderRpcError',
      code,
      message: 'why',
      data: { detail: 1 },
    })
    expect(classes.filter((other) => error instanceof other)).toEqual([Class])
    expect(new Class().message).not.toBe('')
    expect('data' in new Class()).toBe(false)
  })

  test('each code is named once: every ErrorCode of the bridge has its class, and no two classes share a code', () => {
    const codes = classes.map((Class) => Class.code)
    expect(new Set(codes).size).toBe(codes.length)
    expect(Object.values(ErrorCode).filter((code) => !codes.includes(code))).toEqual([])
  })

  test.each(vocabulary)('%s: the frame’s { code %i, message, data } and new ProviderRpcError(code) are instances of it', (name, code) => {
    const Class = exported(name)
    const fromFrame = toProviderError({ code, message: 'from the frame', data: '0x01' })
    expect(fromFrame).toBeInstanceOf(Class)
    expect([fromFrame.code, fromFrame.message, fromFrame.data, fromFrame.name]).toEqual([code, 'from the frame', '0x01', 'ProviderRpcError'])
    expect(new ProviderRpcError(code, 'made here')).toBeInstanceOf(Class)
    let thrown: unknown
    try {
      unwrap({ error: { code, message: 'thrown' } })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Class)
  })

  test('a code outside the vocabulary (a node’s revert, a server error) stays a plain ProviderRpcError with its code and data', () => {
    for (const code of [3, -32000, 1234]) {
      const error = toProviderError({ code, message: 'execution reverted', data: '0x08c379a0' })
      expect(error).toBeInstanceOf(ProviderRpcError)
      expect(Object.getPrototypeOf(error)).toBe(ProviderRpcError.prototype)
      expect(classes.filter((Class) => error instanceof Class)).toEqual([])
      expect([error.code, error.data]).toEqual([code, '0x08c379a0'])
    }
  })

  test('what the provider throws and emits: catch (e) { if (e instanceof UnsupportedMethodError) … } works', async () => {
    const { provider, emit } = createProvider([31337], async (request) => unwrap({ error: { code: 4001, message: `${request.method} rejected by user` } }))
    const caught = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => error,
      )
    const unsupported = await caught(provider.request({ method: 'eth_sign', params: [] }))
    expect(unsupported).toBeInstanceOf(entry.UnsupportedMethodError)
    expect((unsupported as ProviderRpcError).code).toBe(4200)
    expect(await caught(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }))).toBeInstanceOf(entry.SwitchChainError)
    expect(await caught(provider.request({ method: 'eth_chainId', params: 'x' } as never))).toBeInstanceOf(entry.InvalidParamsError)
    const rejected = await caught(provider.request({ method: 'personal_sign', params: ['0x6869', '0x000000000000000000000000000000000000dEaD'] }))
    expect(rejected).toBeInstanceOf(entry.UserRejectedRequestError)
    expect((rejected as ProviderRpcError).code).toBe(4001)
    const disconnects: unknown[] = []
    provider.on('disconnect', ((error: unknown) => disconnects.push(error)) as never)
    emit('disconnect', { code: 4900, message: 'Disconnected' })
    expect(disconnects).toHaveLength(1)
    expect(disconnects[0]).toBeInstanceOf(entry.DisconnectedError)
  })
})
