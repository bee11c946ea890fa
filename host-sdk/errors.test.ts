import * as Provider from 'ox/Provider'
import * as RpcResponse from 'ox/RpcResponse'
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../bridge/index.ts'
import { type ProviderErrorClass, ProviderRpcError, toProviderError, unwrap } from './errors.ts'
import * as entry from './index.ts'
import { createProvider } from './provider.ts'

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
