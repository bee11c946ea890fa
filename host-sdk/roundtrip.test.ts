import * as Provider from 'ox/Provider'
import * as RpcResponse from 'ox/RpcResponse'
import { connect, PortMessenger } from 'penpal'
import { afterEach, describe, expect, test } from 'vitest'
import { negotiate, PROTOCOL_VERSION, serve, widgetChecks, type Hello, type RpcRequest, type WidgetMethods } from '../bridge/index.ts'
import { ProviderRpcError } from '../bridge/error-classes.ts'
import { unwrap } from './provider.ts'

/**
 * The real transport (Penpal over a MessageChannel, as after its window handshake) between a
 * widget-side `serve` and the host-side `unwrap`: codes survive even though Penpal drops them
 * from thrown errors.
 */
const connections: { destroy(): void }[] = []
afterEach(() => {
  for (const c of connections.splice(0)) c.destroy()
})

type Handlers = {
  hello: (h: Hello) => unknown
  request: (r: RpcRequest) => unknown
  open: () => unknown
  close: () => unknown
}

async function pair(handlers: Handlers) {
  const { port1, port2 } = new MessageChannel()
  const widget = connect({ messenger: new PortMessenger({ port: port1 }), methods: serve(widgetChecks, handlers) })
  const host = connect<WidgetMethods>({ messenger: new PortMessenger({ port: port2 }), timeout: 5000 })
  connections.push(widget, host)
  return host.promise
}

const base = {
  hello: negotiate,
  request: () => null,
  open: () => null,
  close: () => null,
}

describe('errors cross the bridge with their EIP-1193 code', () => {
  test('a 4001 thrown in the widget arrives as a 4001 ProviderRpcError at the host', async () => {
    const remote = await pair({
      ...base,
      request: () => {
        throw new Provider.UserRejectedRequestError({ message: 'Message signing rejected by user' })
      },
    })
    const answer = await remote.request({ method: 'personal_sign', params: ['0x68656c6c6f', '0x0'] })
    expect(answer).toEqual({ error: { code: 4001, message: 'Message signing rejected by user' } })
    let caught: unknown
    try {
      unwrap(answer)
    } catch (err) {
      caught = err
    }
    expect(caught).toBeInstanceOf(ProviderRpcError)
    expect(caught).toMatchObject({ name: 'ProviderRpcError', code: 4001, message: 'Message signing rejected by user' })
  })

  test.each([
    [new Provider.UnauthorizedError(), 4100],
    [new Provider.UnsupportedMethodError(), 4200],
    [new Provider.DisconnectedError(), 4900],
    [new Provider.ChainDisconnectedError(), 4901],
    [new Provider.SwitchChainError(), 4902],
    [new RpcResponse.InvalidParamsError(), -32602],
    [new Error('no code'), -32603],
  ])('%s keeps its code', async (thrown, code) => {
    const remote = await pair({
      ...base,
      request: () => {
        throw thrown
      },
    })
    const answer = await remote.request({ method: 'eth_chainId' })
    expect(() => unwrap(answer)).toThrow(ProviderRpcError)
    expect(() => unwrap(answer)).toThrow(expect.objectContaining({ code, message: thrown.message }))
  })

  test('results pass through unchanged', async () => {
    const remote = await pair({ ...base, request: () => ['0x0000000000000000000000000000000000000001'] })
    expect(unwrap(await remote.request({ method: 'eth_accounts' }))).toEqual(['0x0000000000000000000000000000000000000001'])
  })

  test('the protocol version is checked at handshake', async () => {
    const remote = await pair(base)
    expect(await remote.hello({ protocol: PROTOCOL_VERSION })).toEqual({ result: { protocol: PROTOCOL_VERSION } })
    const mismatch = await remote.hello({ protocol: PROTOCOL_VERSION + 1 })
    expect(mismatch).toMatchObject({ error: { code: 4900 } })
    expect(() => unwrap(mismatch)).toThrow(/Protocol version mismatch/)
    expect(() => unwrap(mismatch)).toThrow(expect.objectContaining({ code: 4900 }))
  })
})
