import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { cachedRow, openStore, type Store } from './store.ts'

// cachedRow keeps a row in memory only while nothing can have written its table: what a cached
// signing row or session state may never do is outlive the write that changed it.

let store: Store

beforeAll(async () => {
  store = await openStore({ dataDir: 'memory://' })
  await store.exec("CREATE TABLE things (id text PRIMARY KEY, flag boolean NOT NULL); INSERT INTO things VALUES ('a', true), ('b', true)")
})
afterAll(() => store?.close())

/** A cached read of row `id` that counts its database reads. */
function reader(maxAgeMs = 60_000) {
  let loads = 0
  const read = (id: string) =>
    cachedRow(
      store,
      'things',
      id,
      async () => {
        loads++
        const { rows } = await store.query<{ id: string; flag: boolean }>('SELECT id, flag FROM things WHERE id = $1', [id])
        return rows[0]
      },
      { maxAgeMs },
    )
  return { read, loads: () => loads }
}

describe('cachedRow', () => {
  test('reads once, then answers from memory until a statement writes the table', async () => {
    const { read, loads } = reader()
    expect(await read('a')).toEqual({ id: 'a', flag: true })
    expect(await read('a')).toEqual({ id: 'a', flag: true })
    expect(loads()).toBe(1)
    await store.query('SELECT count(*) FROM things')
    await store.query('UPDATE apps SET name = name WHERE false')
    expect(await read('a')).toEqual({ id: 'a', flag: true })
    expect(loads()).toBe(1)

    await store.query('UPDATE things SET flag = false WHERE id = $1', ['a'])
    expect(await read('a')).toEqual({ id: 'a', flag: false })
    expect(loads()).toBe(2)
    await store.query('update "things" set flag = true')
    expect(await read('a')).toEqual({ id: 'a', flag: true })
    await store.exec("DELETE FROM things WHERE id = 'zz'")
    await read('a')
    await store.query("WITH gone AS (DELETE FROM things WHERE id = 'zz' RETURNING id) SELECT * FROM gone")
    await read('a')
    await store.query("INSERT INTO things VALUES ('c', false)")
    await read('a')
    expect(loads()).toBe(6)
  })

  test('a write made while the row is being read keeps that answer out of the cache', async () => {
    const { read, loads } = reader()
    await store.query("UPDATE things SET flag = true WHERE id = 'b'")
    let release = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    // The read gets its row, then is slow to hand it back; the UPDATE is sent and done meanwhile.
    const slow = cachedRow(store, 'things', 'b', async () => {
      const { rows } = await store.query<{ id: string; flag: boolean }>('SELECT id, flag FROM things WHERE id = $1', ['b'])
      await gate
      return rows[0]
    })
    await store.query("UPDATE things SET flag = false WHERE id = 'b'")
    release()
    expect(await slow).toEqual({ id: 'b', flag: true })
    expect(await read('b')).toEqual({ id: 'b', flag: false })
    expect(loads()).toBe(1)
  })

  test('never keeps "not found", and keeps a row no longer than maxAgeMs', async () => {
    const { read, loads } = reader(1000)
    expect(await read('nope')).toBeUndefined()
    expect(await read('nope')).toBeUndefined()
    expect(loads()).toBe(2)

    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      await read('a')
      await read('a')
      expect(loads()).toBe(3)
      vi.setSystemTime(Date.now() + 1001)
      await read('a')
      expect(loads()).toBe(4)
    } finally {
      vi.useRealTimers()
    }
  })

  test('a failed read keeps nothing and the error reaches the caller', async () => {
    await store.query("UPDATE things SET flag = true WHERE id = 'a'")
    await expect(cachedRow(store, 'things', 'a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    const { read, loads } = reader()
    await read('a')
    expect(loads()).toBe(1)
  })
})
