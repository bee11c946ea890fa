import type { PublicClient } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Store } from '../../infra/database/store.ts'
import { watchChain } from './settlement.ts'

// The chain watch reads the chain and the database only while some sponsored operation on its chain
// is unsettled; it stops when none is left and starts again when one is stored. The chain and the
// database are stand-ins here: what is checked is when a round runs.

let open = false
let blockReads = 0
/** While set, a round waits in getBlockNumber until it is called. */
let hold: (() => void) | undefined
let held: Promise<void> | undefined

const client = {
  async getBlockNumber() {
    blockReads++
    if (held) await held
    return 10n
  },
  getLogs: async () => [],
  getTransactionReceipt: async () => {
    throw new Error('no receipt in this test')
  },
} as unknown as PublicClient

const store = {
  async query(sql: string) {
    return { rows: sql.includes('EXISTS') ? [{ open }] : [], rowCount: 0 }
  },
} as unknown as Store

const newWatch = () =>
  watchChain({
    client,
    store,
    chainId: 31337,
    paymaster: '0x0000000000000000000000000000000000000001',
    record: async () => {},
    outcomeOf: async () => 'open',
  })

beforeEach(() => {
  vi.useFakeTimers()
  open = false
  blockReads = 0
  held = undefined
})
afterEach(() => vi.useRealTimers())

describe('the chain watch', () => {
  test('with nothing unsettled it reads once and stops; started again, it reads again', async () => {
    const watch = newWatch()
    watch.start()
    await vi.advanceTimersByTimeAsync(1000)
    expect(blockReads).toBe(1)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(blockReads).toBe(1)
    watch.start()
    await vi.advanceTimersByTimeAsync(1000)
    expect(blockReads).toBe(2)
    await vi.advanceTimersByTimeAsync(5000)
    expect(blockReads).toBe(2)
    watch.stop()
  })

  test('it goes on every second while a sponsored operation is unsettled, and stops after the round that finds none', async () => {
    open = true
    const watch = newWatch()
    watch.start()
    await vi.advanceTimersByTimeAsync(3000)
    expect(blockReads).toBe(3)
    open = false
    await vi.advanceTimersByTimeAsync(1000)
    expect(blockReads).toBe(4)
    await vi.advanceTimersByTimeAsync(5000)
    expect(blockReads).toBe(4)
    watch.stop()
  })

  test('a start asked during a round that then finds nothing open still gets a round of its own', async () => {
    const watch = newWatch()
    held = new Promise((done) => {
      hold = done
    })
    watch.start()
    await vi.advanceTimersByTimeAsync(1000)
    expect(blockReads).toBe(1)
    // An operation is stored while the round reads the chain, after the round's own look at it.
    watch.start()
    held = undefined
    hold!()
    await vi.advanceTimersByTimeAsync(1000)
    expect(blockReads).toBe(2)
    await vi.advanceTimersByTimeAsync(5000)
    expect(blockReads).toBe(2)
    watch.stop()
  })

  test('stopped, it never reads again, whoever asks', async () => {
    open = true
    const watch = newWatch()
    watch.start()
    await vi.advanceTimersByTimeAsync(1000)
    watch.stop()
    watch.start()
    await vi.advanceTimersByTimeAsync(5000)
    expect(blockReads).toBe(1)
  })
})
