// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { hostChecks, isResult } from '../bridge/index.ts'
import { hostCall, unknownName } from '../bridge/fuzz-calls.fixture.ts'
import { prototypeKeys, runCases, watchUncaught, type Fuzz } from '../bridge/fuzz.fixture.ts'
import { namespace, type Frame } from '../bridge/penpal-peer.fixture.ts'
import { startKit } from './kit.fixture.ts'

/**
 * 10,000 generated messages at the host SDK's side of the bridge (a real kit: channel.ts,
 * connection.ts, kit.ts's host methods), from what a frame or another window can send it: calls
 * with malformed arguments, unknown methods and prototype keys, raw Penpal frames, window messages
 * from other windows and origins. Nothing may throw or change, every call is answered with a
 * JSON-RPC-shaped error, and the kit works afterwards. Seeded (bridge/fuzz.fixture.ts).
 */
const providerOrigin = 'http://provider.test'
const uncaught = watchUncaught()
let setup: Awaited<ReturnType<typeof startKit>>
let before: string
let hostCalls: number

beforeAll(async () => {
  setup = await startKit()
  before = setup.snapshot()
  hostCalls = setup.frame.calls.length
})
afterAll(() => {
  setup.stop()
  uncaught.stop()
})

const unchanged = () => {
  expect(setup.snapshot()).toBe(before)
  expect(setup.frame.calls.length, 'the host called the frame').toBe(hostCalls)
}

function expectRefusal(reply: Frame | 'timeout', code?: number) {
  if (reply === 'timeout') throw new Error('no reply within 5 s')
  expect(reply.isError, 'a host method threw across the wire').toBeFalsy()
  expect(isResult(reply.value), `not JSON-RPC-shaped: ${JSON.stringify(reply.value)}`).toBe(true)
  const { error } = reply.value as { error?: { code: number; message: string } }
  expect(error, `accepted: ${JSON.stringify(reply.value)}`).toBeDefined()
  expect(code === undefined ? [-32602, 4200] : [code]).toContain(error!.code)
  expect(error!.message).toEqual(expect.any(String))
}

describe('host SDK bridge fuzz', () => {
  test('4,000 calls of every host method with arguments the contract refuses: -32602 each, nothing changes', async () => {
    await runCases('host method call', 4_000, hostCall, async ({ name, args }) => {
      expectRefusal(await setup.frame.call([name], args))
      unchanged()
    })
  })

  test('1,000 calls of unknown methods, prototype keys and odd method paths: 4200 each (odd arguments: -32602)', async () => {
    await runCases('unknown method call', 1_000, oddCall, async ({ methodPath, args }) => {
      const known = Array.isArray(methodPath) && methodPath.length === 1 && typeof methodPath[0] === 'string' && Object.hasOwn(hostChecks, methodPath[0])
      expectRefusal(await setup.frame.call(methodPath, args), known ? -32602 : 4200)
      unchanged()
    })
  })

  test('2,500 raw frames on the port that are no calls are ignored', async () => {
    await runCases('raw frame', 2_500, rawFrame, async (frame) => {
      setup.frame.raw(frame)
      await new Promise((resolve) => setTimeout(resolve, 1))
      unchanged()
    })
  })

  test('2,500 window messages from other windows, other origins, or off the protocol are ignored', async () => {
    const reached: unknown[] = []
    await runCases('window message', 2_500, windowMessage, async ({ data, origin, source, withPort }) => {
      const channel = withPort ? new MessageChannel() : undefined
      if (channel) channel.port1.onmessage = ({ data: message }) => reached.push(message)
      const from = source === 'frame' ? setup.frame.window : source === 'none' ? null : source === 'page' ? window : { origin }
      setup.frame.fromWindow(data, origin, from, channel ? [channel.port2] : [])
      await new Promise((resolve) => setTimeout(resolve, 1))
      channel?.port1.close()
      unchanged()
    })
    expect(reached).toEqual([])
  })

  test('200 hellos answered with a refusal, another version or a malformed welcome: calls fail with a ProviderRpcError, nothing else happens', async () => {
    setup.stop()
    await runCases('welcome', 200, welcome, async (answer) => {
      const kit = await startKit({ welcome: answer })
      try {
        const outcome = await kit.kit.provider.request({ method: 'eth_chainId' }).then(
          (result) => ({ result }),
          (error: { code?: unknown }) => ({ code: error.code }),
        )
        const refused = answer.isError || !isResult(answer.value) || 'error' in answer.value
        // A version the frame names in a welcome is its to check (it refuses another with 4900); the host takes its word.
        if (!refused) expect(outcome).toEqual({ result: '0x7a69' })
        else expect([4900, -32603]).toContain((outcome as { code?: unknown }).code)
        expect(kit.emitted).toEqual([])
        // Refused: only the hello was sent, nothing after it.
        if (refused) expect(kit.frame.calls.map((c) => c.methodPath)).toEqual([['hello']])
      } finally {
        kit.stop()
      }
    })
    setup = await startKit()
  })

  test('afterwards the kit answers normally, and nothing was thrown or left unhandled', async () => {
    expect(await setup.kit.provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
    const shown = await setup.frame.call(['setVisible'], [true])
    expect(shown !== 'timeout' && shown.value).toEqual({ result: null })
    expect(setup.emitted).toEqual([['open', null]])
    expect(uncaught.caught).toEqual([])
  })
})

/** The frame's answer to hello: a refusal, another protocol version, or no welcome at all. */
const welcome = (f: Fuzz): { value: unknown; isError?: boolean } =>
  f.pick<{ value: unknown; isError?: boolean }>([
    { value: { error: { code: 4900, message: 'Protocol version mismatch' } } },
    { value: { result: { protocol: f.pick([0, 2, -1, 1.5, '1', null]) } } },
    { value: f.value() },
    { value: { result: null, error: null } },
    { value: { message: f.value() }, isError: true },
  ])

const names = Object.keys(hostChecks)

function oddCall(f: Fuzz) {
  const methodPath = f.pick<unknown>([
    [unknownName(f)],
    [f.pick(prototypeKeys)],
    [f.pick(names), f.pick(prototypeKeys)],
    [f.pick(prototypeKeys), f.pick(names)],
    f.pick(names),
    null,
    12,
    {},
    [],
    // Objects whose toString and valueOf are data, not functions: String() of them throws.
    [{ toString: 1, valueOf: {} }],
    { toString: f.value(), valueOf: f.value() },
  ])
  // Arguments that are no list are taken as none: a known method then misses its arguments.
  const noList = f.pick<unknown>([null, 'true', 12, { 0: true, length: 1 }])
  return { methodPath, args: Array.isArray(methodPath) || f.chance(0.5) ? noList : [f.value()] }
}

function rawFrame(f: Fuzz): unknown {
  return f.pick<unknown>([
    { namespace, type: 'REPLY', callId: f.chance(0.5) ? f.pick(prototypeKeys) : f.value(), value: f.value(), isError: f.chance(0.5) },
    {
      namespace,
      type: f.pick<unknown>(['call', 'Reply', 'DESTROY', 'SYN', 'ACK2', '', null, 12, ...prototypeKeys]),
      id: 'x',
      methodPath: ['setVisible'],
      args: [true],
    },
    { namespace: f.pick<unknown>(['Penpal', 'penpal ', null, 12, ['penpal']]), type: 'CALL', id: 'x', methodPath: ['setVisible'], args: [true] },
    f.value(),
    f.record('clone', 0, ['namespace', 'type']),
  ])
}

type WindowCase = { data: unknown; origin: string; source: 'stranger' | 'frame' | 'page' | 'none'; withPort: boolean }

/** From another window or origin anything goes; from the frame itself only what is off the protocol (a new SYN is a reload). */
function windowMessage(f: Fuzz): WindowCase {
  const handshake = (): unknown =>
    f.pick<unknown>([
      { namespace, type: 'SYN', participantId: f.pick<unknown>(['zzzz', '1', f.string(), null, 12]) },
      { namespace, type: 'ACK1', methodPaths: [] },
      { namespace, type: 'ACK2' },
      { namespace, type: 'CALL', id: 'w', methodPath: ['setVisible'], args: [true] },
      { penpal: 'syn' },
      f.value(),
    ])
  const offProtocol = (): unknown =>
    f.pick<unknown>([
      { namespace, type: 'SYN', participantId: '0' },
      { namespace, channel: f.pick<unknown>(['x', 0, null]), type: 'SYN', participantId: 'zzzz' },
      { namespace: 'Penpal', type: 'SYN', participantId: 'zzzz' },
      { namespace, type: f.pick<unknown>(['CALL', 'REPLY', 'DESTROY', 'syn', 12]), id: 'w', methodPath: ['setVisible'], args: [true] },
      f.value(),
    ])
  const kind = f.int(4)
  if (kind === 0) return { data: offProtocol(), origin: providerOrigin, source: 'frame', withPort: false }
  const origin = f.pick([providerOrigin, 'http://evil.example', 'null', 'http://provider.test:80', 'https://provider.test', location.origin, ''])
  const source = kind === 1 ? 'frame' : f.pick(['stranger', 'stranger', 'page', 'none'] as const)
  // The frame's window with another origin cannot happen in a browser; it is checked all the same.
  return { data: handshake(), origin: source === 'frame' && origin === providerOrigin ? 'http://evil.example' : origin, source, withPort: f.chance(0.3) }
}
