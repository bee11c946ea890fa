// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isResult, PROTOCOL_VERSION, widgetChecks } from '../bridge/index.ts'
import { unknownName, widgetCall } from '../bridge/fuzz-calls.fixture.ts'
import { namespace, penpalPeer, type Frame } from '../bridge/penpal-peer.fixture.ts'
import { prototypeKeys, prototypeSnapshot, runCases, watchUncaught, type Fuzz } from '../bridge/fuzz.fixture.ts'
import { serveHost } from './bridge.ts'
import { testContext } from './rpc/context.fixture.ts'
import type { RpcContext } from './rpc/types.ts'
import { alice } from './wallet.fixture.ts'

/**
 * 10,000 generated messages at the widget's side of the bridge (widget/bridge.ts on the real
 * Penpal 7, the real wallet state machine and confirmation queue, a signed-in session): bridge
 * calls with malformed arguments, raw Penpal frames, and window messages from other windows and
 * origins. Nothing may throw or change, and every bridge call answers a JSON-RPC-shaped value.
 * Seeded: a failure names its seed and case (bridge/fuzz.fixture.ts).
 */
const hostOrigin = 'http://127.0.0.1:5173'
const t = testContext({ session: alice })
const host = penpalPeer({ role: 'host', origin: hostOrigin })
const uncaught = watchUncaught()
const frameParent = Object.getOwnPropertyDescriptor(window, 'parent')!
const forwarded: string[] = []

/** Everything a message could change: the session, the queue, the UI store, what was sent anywhere. */
const snapshot = () =>
  JSON.stringify({
    ui: t.wallet.ui.get(),
    stored: t.stored(),
    account: t.account(),
    tokens: t.owner.tokens.get(),
    events: t.events,
    visible: t.visible,
    broadcasts: t.broadcasts,
    serviceCalls: t.calls,
    toHost: host.calls,
    posted: host.posted.length,
    orphans: host.orphans,
    prototypes: prototypeSnapshot(),
  })
let before: string

/** EIP-1193, EIP-1474 and EIP-5792 codes: what a bridge answer may carry. */
const knownCode = (code: unknown) =>
  typeof code === 'number' && ([4001, 4100, 4200, 4900, 4901, 4902].includes(code) || (code >= -32700 && code <= -32000) || (code >= 5700 && code <= 5760))

function expectAnswer(reply: Frame | 'timeout', expected: 'error' | 'any') {
  if (reply === 'timeout') throw new Error('no reply within 5 s')
  expect(reply.isError, 'a bridge method threw across the wire').toBeFalsy()
  expect(isResult(reply.value), `not JSON-RPC-shaped: ${JSON.stringify(reply.value)}`).toBe(true)
  const value = reply.value as { error?: { code: unknown; message: unknown } }
  if (expected === 'error') expect(value.error, `accepted: ${JSON.stringify(reply.value)}`).toBeDefined()
  if (value.error) {
    expect(knownCode(value.error.code), `code ${value.error.code}`).toBe(true)
    // Bad input is the caller's fault (-32602, 4100, 4200, …), never the wallet's (-32603).
    expect(value.error.code, value.error.message as string).not.toBe(-32603)
    expect(typeof value.error.message === 'string' && value.error.message.length > 0).toBe(true)
  }
}

beforeAll(async () => {
  await t.wallet.restore()
  t.ctx.rpc = (() => ({
    request: async ({ method }: { method: string }) => {
      forwarded.push(method)
      return '0x1'
    },
  })) as unknown as RpcContext['rpc']
  Object.defineProperty(window, 'parent', { value: host.window, configurable: true })
  serveHost({ hostOrigin, admission: { chains: [31337, 31338] }, context: Promise.resolve(t.ctx) })
  await host.ready
  expectAnswer(await host.call(['hello'], [{ protocol: PROTOCOL_VERSION }]), 'any')
  before = snapshot()
})

afterAll(() => {
  uncaught.stop()
  host.close()
  Object.defineProperty(window, 'parent', frameParent)
})

describe('widget bridge fuzz', () => {
  test('6,000 calls of every bridge method with arguments the contract refuses: an error answer each, nothing changes', async () => {
    await runCases(
      'widget bridge call',
      6_000,
      (f) => widgetCall(f, alice.address),
      async ({ name, args, expect: expected }) => {
        expectAnswer(await host.call([name], args), expected)
        expect(snapshot()).toBe(before)
      },
    )
  })

  test('2,000 raw Penpal frames on the port: odd method paths, prototype keys, odd arguments, unknown frame types', async () => {
    await runCases('raw frame', 2_000, rawFrame, async (frame) => {
      if (frame.kind === 'call') {
        const reply = await host.call(frame.methodPath, frame.args, { id: frame.id })
        if (reply === 'timeout') throw new Error('no reply within 5 s')
        // Penpal itself refuses a path it does not serve (isError); whatever ran must be ours.
        if (!reply.isError) expect(isResult(reply.value), `ran something that is no bridge method: ${JSON.stringify(reply.value)}`).toBe(true)
      } else {
        host.raw(frame.frame)
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
      expect(snapshot()).toBe(before)
    })
  })

  test('2,000 window messages from other windows and origins are ignored', async () => {
    const reached: unknown[] = []
    await runCases('window message', 2_000, windowMessage, async ({ data, origin, source, withPort }) => {
      const channel = withPort ? new MessageChannel() : undefined
      if (channel) channel.port1.onmessage = ({ data: answer }) => reached.push(answer)
      host.fromWindow(data, origin, source === 'frame' ? window : source === 'none' ? null : { origin }, channel ? [channel.port2] : [])
      await new Promise((resolve) => setTimeout(resolve, 1))
      channel?.port1.close()
      expect(snapshot()).toBe(before)
    })
    expect(reached).toEqual([])
  })

  test('afterwards the bridge answers normally, and nothing was thrown or left unhandled', async () => {
    const answer = async (name: string, args: unknown[]) => {
      const reply = await host.call([name], args)
      return reply === 'timeout' ? reply : reply.value
    }
    expect(await answer('hello', [{ protocol: PROTOCOL_VERSION }])).toEqual({ result: { protocol: PROTOCOL_VERSION, chains: [31337, 31338] } })
    expect(await answer('request', [{ method: 'eth_accounts' }])).toEqual({ result: [alice.address] })
    expect(await answer('request', [{ method: 'eth_chainId' }])).toEqual({ result: '0x7a69' })
    // The host reads the method table itself: the frame serves no `check` method any more.
    expect(await answer('check', [{ method: 'personal_sign', params: ['0x6869', alice.address] }])).toMatchObject({ penpalCode: 'METHOD_NOT_FOUND' })
    expect(snapshot()).toBe(before)
    // Only the allowlisted reads reached the chain.
    expect(forwarded.every((m) => m.startsWith('eth_') || m.startsWith('net_') || m.startsWith('web3_'))).toBe(true)
    expect(uncaught.caught).toEqual([])
  })
})

type RawCase = { kind: 'call'; methodPath: unknown; args: unknown; id: unknown } | { kind: 'frame'; frame: unknown }

const methodNames = Object.keys(widgetChecks)

function rawFrame(f: Fuzz, index: number): RawCase {
  const id = f.chance(0.8) ? `raw-${index}` : index
  if (f.chance(0.7)) {
    const methodPath = f.pick<unknown>([
      [unknownName(f)],
      [f.pick(methodNames), f.pick([...prototypeKeys, 'call', 'apply', 'bind'])],
      [f.pick(prototypeKeys), f.pick(prototypeKeys)],
      ['constructor', 'constructor'],
      ['constructor', f.pick(['assign', 'defineProperty', 'setPrototypeOf', 'freeze', 'getPrototypeOf'])],
      f.pick(methodNames),
      null,
      12,
      { 0: 'hello', length: 1 },
      [],
    ])
    return { kind: 'call', methodPath, args: f.chance(0.7) ? [f.value()] : f.value(), id }
  }
  const frame = f.pick<unknown>([
    { namespace, type: 'REPLY', callId: f.chance(0.5) ? `call-${f.int(100)}` : f.value(), value: f.value(), isError: f.chance(0.5) },
    { namespace, type: f.pick<unknown>(['call', 'Reply', 'PING', '', null, ...prototypeKeys]), id, methodPath: ['hello'], args: [] },
    { namespace: f.pick<unknown>(['Penpal', 'penpal ', null, 12]), type: 'CALL', id, methodPath: ['disconnect'], args: [] },
    { namespace, channel: f.pick<unknown>(['x', 0, null]), type: 'CALL', id, methodPath: ['disconnect'], args: [] },
    f.value(),
    f.record('clone', 0, ['namespace', 'type']),
  ])
  return { kind: 'frame', frame }
}

type WindowCase = { data: unknown; origin: string; source: 'stranger' | 'frame' | 'none'; withPort: boolean }

function windowMessage(f: Fuzz): WindowCase {
  const origin = f.pick([hostOrigin, 'http://evil.example', 'null', 'http://127.0.0.1:5174', 'https://127.0.0.1:5173', ''])
  const data = f.pick<unknown>([
    { namespace, type: 'SYN', participantId: f.pick<unknown>(['0', 'zzzz', f.string(), null]) },
    { namespace, type: 'ACK1', methodPaths: [] },
    { namespace, type: 'ACK2' },
    { namespace, type: 'CALL', id: 'w', methodPath: [f.pick(methodNames)], args: [] },
    { namespace, type: 'REPLY', callId: 'w', value: { result: null } },
    { namespace, type: 'DESTROY' },
    { penpal: f.pick(['syn', 'ack', 'call', 'reply']), id: 1, methodName: 'disconnect', args: [] },
    f.value(),
  ])
  return { data, origin, source: f.pick(['stranger', 'stranger', 'frame', 'none']), withPort: f.chance(0.3) }
}
