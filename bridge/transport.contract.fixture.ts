// The contract every channel of the frame keeps (bridge/transport.ts), as one suite each channel's
// test runs over its own parts: `describeTransportContract('popup channel', makePair)`.
import { afterEach, describe, expect, test } from 'vitest'
import type { Transport } from './transport.ts'

/** One end under test and a handle on the other side of the same channel. */
export type TransportPair<Out, In> = {
  /** The end under test (the frame's, as the product uses it). */
  local: Transport<Out, In>
  /** The other side writes its `n`-th well-formed message; `expected(n)` is how `local` reads it. */
  send(n: number): Promise<void>
  expected(n: number): In
  /** The other side puts a raw value on the wire as it is (no type check on the way). */
  sendRaw(value: unknown): Promise<void>
  /** What the other side has read of `local`'s posts so far, in order; `outgoing(n)` is the `n`-th. */
  received(): unknown[]
  outgoing(n: number): Out
  /** The other side goes away (closes, is destroyed, ends the session), or the channel is over. */
  end(): Promise<void>
  dispose(): Promise<void>
}

export type ContractOptions = {
  /** Values the wire carries that are not a message of the other side: each must be dropped. */
  malformed: readonly unknown[]
  /** How long "nothing more comes" is waited for (a long poll's round trip, a relay hop). */
  settleMs: number
  timeoutMs?: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(done: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (!done() && Date.now() < deadline) await sleep(10)
  expect(done()).toBe(true)
}

export function describeTransportContract<Out, In>(name: string, makePair: () => Promise<TransportPair<Out, In>>, options: ContractOptions) {
  const { malformed, settleMs, timeoutMs = 8_000 } = options
  const pairs: TransportPair<Out, In>[] = []
  const pair = async () => {
    const made = await makePair()
    pairs.push(made)
    return made
  }
  /** Listens on `local`, counting what arrives and how often `ended` is called. */
  const reader = (p: TransportPair<Out, In>) => {
    const messages: In[] = []
    let ended = 0
    const stop = p.local.listen({ message: (m) => messages.push(m), ended: () => ended++ })
    return { messages, stop, ended: () => ended }
  }

  describe(`${name}: transport contract`, () => {
    afterEach(async () => {
      await Promise.all(pairs.splice(0).map((p) => p.dispose()))
    })

    test("the other side's messages arrive once each, in the order written", async () => {
      const p = await pair()
      const r = reader(p)
      for (let n = 1; n <= 5; n++) await p.send(n)
      await until(() => r.messages.length >= 5, timeoutMs)
      await sleep(settleMs)
      expect(r.messages).toEqual([1, 2, 3, 4, 5].map(p.expected))
      r.stop()
    })

    test("the frame's posts reach the other side once each, in order", async () => {
      const p = await pair()
      const r = reader(p)
      for (let n = 1; n <= 5; n++) await p.local.post(p.outgoing(n))
      await until(() => p.received().length >= 5, timeoutMs)
      await sleep(settleMs)
      expect(p.received()).toEqual([1, 2, 3, 4, 5].map(p.outgoing))
      r.stop()
    })

    test('a malformed message is dropped, not thrown, and what follows still arrives', async () => {
      const p = await pair()
      const r = reader(p)
      for (const value of malformed) await p.sendRaw(value)
      await p.send(1)
      await until(() => r.messages.length >= 1, timeoutMs)
      await sleep(settleMs)
      expect(r.messages).toEqual([p.expected(1)])
      expect(r.ended()).toBe(0)
      r.stop()
    })

    test('after stop nothing is delivered', async () => {
      const p = await pair()
      const r = reader(p)
      await p.send(1)
      await until(() => r.messages.length >= 1, timeoutMs)
      r.stop()
      await p.send(2)
      await p.end()
      await sleep(settleMs)
      expect([r.messages, r.ended()]).toEqual([[p.expected(1)], 0])
    })

    test('ended is called once when the other side is gone; nothing is delivered after it', async () => {
      const p = await pair()
      const r = reader(p)
      await p.send(1)
      await until(() => r.messages.length >= 1, timeoutMs)
      await p.end()
      await until(() => r.ended() >= 1, timeoutMs)
      await sleep(settleMs)
      expect([r.messages, r.ended()]).toEqual([[p.expected(1)], 1])
      r.stop()
    })

    test('a post after the end rejects', async () => {
      const p = await pair()
      const r = reader(p)
      await p.end()
      await until(() => r.ended() >= 1, timeoutMs)
      await expect(p.local.post(p.outgoing(1))).rejects.toThrow()
      r.stop()
    })
  })
}
