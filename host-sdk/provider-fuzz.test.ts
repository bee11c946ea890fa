// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { isResult, type RpcRequest } from '../bridge/index.ts'
import { rpcRequest, type FuzzRequest } from '../bridge/fuzz-calls.fixture.ts'
import { prototypeKeys, runCases, watchUncaught, type Fuzz } from '../bridge/fuzz.fixture.ts'
import { ProviderRpcError } from '../bridge/error-classes.ts'
import { startKit } from './kit.fixture.ts'

/**
 * 10,000 generated `provider.request(...)` calls on a real kit (kit.ts, provider.ts, connection.ts)
 * whose frame is the Penpal-protocol emulator: malformed requests, and well-formed ones the frame
 * answers with malformed replies. Each settles with a ProviderRpcError carrying a proper EIP-1193
 * code (or a result for a valid read), nothing is emitted, and the provider works afterwards.
 * Seeded (bridge/fuzz.fixture.ts).
 */
const account = '0x00000000000000000000000000000000000A11cE'
const uncaught = watchUncaught()
let setup: Awaited<ReturnType<typeof startKit>>
let before: string

beforeAll(async () => {
  setup = await startKit()
  before = setup.snapshot()
})
afterAll(() => {
  setup.stop()
  uncaught.stop()
})

const settle = (request: unknown) =>
  setup.kit.provider.request(request as RpcRequest).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  )

function expectProviderError(outcome: { result: unknown } | { error: unknown }, codes: readonly number[]) {
  expect(outcome, `resolved with ${JSON.stringify((outcome as { result?: unknown }).result)}`).toHaveProperty('error')
  const { error } = outcome as { error: unknown }
  expect(error, String(error)).toBeInstanceOf(ProviderRpcError)
  const { code, message } = error as ProviderRpcError
  expect(codes, message).toContain(code)
  expect(message).toEqual(expect.any(String))
}

describe('provider.request fuzz', () => {
  test('8,000 malformed requests: a ProviderRpcError with an EIP-1193 code each (valid reads answer), nothing emitted', async () => {
    await runCases('provider.request', 8_000, request, async ({ request, expect: expected, level }) => {
      const outcome = await settle(request)
      // Well-typed requests only the wallet can judge (`meaning`) are the frame's to refuse: sent on.
      if ((expected === 'error' && level !== 'meaning') || 'error' in outcome) expectProviderError(outcome, [4001, 4200, 4902, -32602])
      expect(setup.snapshot()).toBe(before)
    })
  })

  test('2,000 valid requests the frame answers with malformed replies: -32603 (4900 for a thrown one), or what a well-formed reply says', async () => {
    let reply: { value: unknown; isError?: boolean } | undefined
    setup.frame.reply = (name) => (name === 'request' ? reply : undefined)
    onTestFinished(() => {
      setup.frame.reply = undefined
    })
    await runCases('malformed reply', 2_000, malformedReply, async (generated) => {
      reply = generated.reply
      const outcome = await settle(generated.request)
      const { value, isError } = generated.reply
      if (isError) expectProviderError(outcome, [4900])
      else if (!isResult(value)) expectProviderError(outcome, [-32603])
      else if ('error' in value) expectProviderError(outcome, [value.error.code])
      else expect(outcome).toEqual({ result: value.result })
      expect(setup.snapshot()).toBe(before)
    })
  })

  test('afterwards the provider answers normally, and nothing was thrown or left unhandled', async () => {
    expect(await setup.kit.provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(await setup.kit.provider.request({ method: 'eth_blockNumber', params: [] })).toBe('0x1')
    await expect(setup.kit.provider.request({ method: 'personal_sign', params: ['0x6869', account] })).rejects.toMatchObject({ code: 4001 })
    expect(setup.emitted).toEqual([])
    expect(uncaught.caught).toEqual([])
  })
})

/** Malformed requests, half of them carrying what no message can (functions, symbols); chain switches to chains the app lacks. */
function request(f: Fuzz): FuzzRequest {
  if (f.chance(0.85)) return rpcRequest(f, account, f.chance(0.5) ? 'any' : 'clone')
  const chainId = f.pick<unknown>(['0x1', 1, 'abc', '0x7a6a0', Symbol('chain'), {}, [], null, 1n, 31337n, Number.NaN, '31337', ' 0x7a69', ...prototypeKeys])
  const method = f.pick(['wallet_switchEthereumChain', 'wallet_addEthereumChain'])
  return { request: { method, params: f.chance(0.8) ? [{ chainId }] : [{ chainId }, f.value('any')] }, expect: 'error' }
}

function malformedReply(f: Fuzz) {
  const request = f.pick<unknown>([{ method: 'eth_blockNumber' }, { method: 'eth_getBalance', params: [account, 'latest'] }, { method: 'eth_chainId' }])
  const value = f.chance(0.01)
    ? { result: f.huge('clone') }
    : f.pick<unknown>([
        f.value(),
        null,
        { result: f.value() },
        { error: f.value() },
        { error: { code: f.pick<unknown>(['4001', null, {}]), message: 'x' } },
        { error: { code: f.pick([4001, 4100, 4900, -32603]), message: f.string(), data: f.value() } },
        f.record('clone', 0, ['result', 'error']),
      ])
  return { request, reply: { value, ...(f.chance(0.15) && { isError: true }) } }
}
