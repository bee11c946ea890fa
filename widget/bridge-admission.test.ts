// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest'
import { ErrorCode, PROTOCOL_VERSION } from '../bridge/index.ts'
import { frameAwaitingAdmission, settlesSoon } from './bridge.fixture.ts'
import { testContext } from './rpc/context.fixture.ts'
import type { RpcContext } from './rpc/types.ts'

// The frame starts the transport's handshake before its app config is read (frame.ts): until the
// config has admitted the page, nothing it sends is checked or served.

const hostOrigin = 'http://127.0.0.1:5173'
let close = () => {}
afterEach(() => close())

function frameBeforeItsConfig() {
  let session: (ctx: RpcContext) => void = () => {}
  const frame = frameAwaitingAdmission({ hostOrigin, context: new Promise((resolve) => (session = resolve)) })
  close = frame.close
  return { host: frame.host, admit: frame.admit, session }
}

test("the handshake's transport opens at once, but no call is answered, not even a malformed one, before the config admits the page", async () => {
  const { host, admit } = frameBeforeItsConfig()
  await host.ready
  const hello = host.call(['hello'], [{ protocol: PROTOCOL_VERSION }])
  const malformed = host.call(['request'], ['not a request'])
  const unknownView = host.call(['open'], ['nowhere'])
  expect(await settlesSoon(hello)).toBe(false)
  expect(await settlesSoon(malformed)).toBe(false)
  expect(await settlesSoon(unknownView)).toBe(false)
  // Admitted: each is answered as it would have been, in its order.
  admit({ chains: [31337, 31338] })
  expect(await hello).toMatchObject({ value: { result: { protocol: PROTOCOL_VERSION, chains: [31337, 31338] } } })
  expect(await malformed).toMatchObject({ value: { error: { code: ErrorCode.invalidParams } } })
  expect(await unknownView).toMatchObject({ value: { error: { code: ErrorCode.invalidParams } } })
})

test('a page the config refuses (the embedded wallet disabled, no chain offered) gets the refusal for the hello and every call', async () => {
  const { host, admit, session } = frameBeforeItsConfig()
  await host.ready
  const hello = host.call(['hello'], [{ protocol: PROTOCOL_VERSION }])
  admit({ refusal: { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' }, chains: [] })
  expect(await hello).toMatchObject({ value: { error: { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' } } })
  session(testContext().ctx)
  expect(await host.call(['request'], [{ method: 'eth_chainId' }])).toMatchObject({ value: { error: { code: ErrorCode.disconnected } } })
})

test('once admitted, the hello is answered before the session is read; a request waits for the session', async () => {
  const { host, admit, session } = frameBeforeItsConfig()
  await host.ready
  admit({ chains: [31337] })
  expect(await host.call(['hello'], [{ protocol: PROTOCOL_VERSION }])).toMatchObject({ value: { result: { chains: [31337] } } })
  const chainId = host.call(['request'], [{ method: 'eth_chainId' }])
  expect(await settlesSoon(chainId)).toBe(false)
  session(testContext().ctx)
  expect(await chainId).toMatchObject({ value: { result: '0x7a69' } })
})
