import type { Hash } from 'viem'
import type { Store } from '../../infra/database/store.ts'
import { opByHash, type OpRow } from './queries.ts'

/** Who waits for an operation to settle (/userOp/receipt with wait), woken when the bundler records its end. */
export function createOpWaiters(store: Store) {
  const waiters = new Map<string, ((row: OpRow | undefined) => void)[]>()
  const wake = (hash: string, row: OpRow | undefined) => {
    for (const resolve of waiters.get(hash) ?? []) resolve(row)
    waiters.delete(hash)
  }
  return {
    wake,
    /** Answers the operation once included or failed (or as it is after `timeoutMs`). */
    async settled(hash: Hash, timeoutMs: number): Promise<OpRow | undefined> {
      const row = await opByHash(store, hash)
      if (!row || row.status === 'included' || row.status === 'failed' || row.status === 'built') return row
      return await new Promise<OpRow | undefined>((resolve) => {
        const waiter = (value: OpRow | undefined) => {
          clearTimeout(timeout)
          resolve(value)
        }
        const timeout = setTimeout(async () => {
          const left = (waiters.get(hash) ?? []).filter((w) => w !== waiter)
          if (left.length) waiters.set(hash, left)
          else waiters.delete(hash)
          resolve(await opByHash(store, hash))
        }, timeoutMs)
        waiters.set(hash, [...(waiters.get(hash) ?? []), waiter])
      })
    },
    wakeAll() {
      for (const hash of [...waiters.keys()]) wake(hash, undefined)
    },
  }
}
