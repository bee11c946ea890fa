import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { cachedRow, openStore, type Store, tablesWrittenBy } from './store.ts'

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

  test('a row read from several tables is kept until a statement writes any one of them', async () => {
    await store.exec("CREATE TABLE others (id text PRIMARY KEY); INSERT INTO others VALUES ('x')")
    let loads = 0
    const read = () =>
      cachedRow(store, ['things', 'others'], 'both', async () => {
        loads++
        const { rows } = await store.query<{ n: number }>('SELECT (SELECT count(*) FROM things)::int + (SELECT count(*) FROM others)::int AS n')
        return rows[0]
      })
    const first = await read()
    expect(await read()).toEqual(first)
    expect(loads).toBe(1)
    await store.query("INSERT INTO others VALUES ('y')")
    expect(await read()).toEqual({ n: first!.n + 1 })
    expect(loads).toBe(2)
    await store.query("DELETE FROM things WHERE id = 'nothing'")
    await read()
    expect(loads).toBe(3)
    await store.query('UPDATE apps SET name = name WHERE false')
    await read()
    expect(loads).toBe(3)
  })

  test('a failed read keeps nothing and the error reaches the caller', async () => {
    await store.query("UPDATE things SET flag = true WHERE id = 'a'")
    await expect(cachedRow(store, 'things', 'a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    const { read, loads } = reader()
    await read('a')
    expect(loads()).toBe(1)
  })
})

describe('cachedRow and writes the change counter must not miss', () => {
  /** Caches row 'a', runs `write` (which must leave flag false), and answers what the next read sees. */
  async function afterWrite(write: () => Promise<unknown>) {
    await store.query("UPDATE things SET flag = true WHERE id = 'a'")
    const { read } = reader()
    expect(await read('a')).toEqual({ id: 'a', flag: true })
    await write()
    return read('a')
  }

  test('a schema-qualified table name, quoted or not', async () => {
    expect(await afterWrite(() => store.query("UPDATE public.things SET flag = false WHERE id = 'a'"))).toEqual({ id: 'a', flag: false })
    expect(await afterWrite(() => store.query(`UPDATE "public"."things" SET flag = false WHERE id = 'a'`))).toEqual({ id: 'a', flag: false })
  })

  test('a comment between the keyword and the table', async () => {
    expect(await afterWrite(() => store.query("UPDATE /* switch off */ things SET flag = false WHERE id = 'a'"))).toEqual({ id: 'a', flag: false })
    expect(await afterWrite(() => store.query("UPDATE -- switch off\n things SET flag = false WHERE id = 'a'"))).toEqual({ id: 'a', flag: false })
  })

  test('TRUNCATE of several tables names each of them', async () => {
    await store.exec('CREATE TABLE IF NOT EXISTS other_things (id text)')
    expect(await afterWrite(() => store.query('TRUNCATE other_things, things'))).toBeUndefined()
    await store.query("INSERT INTO things VALUES ('a', true), ('b', true)")
  })

  test('a transaction rolled back: the row read inside it is not kept', async () => {
    await store.query("UPDATE things SET flag = false WHERE id = 'a'")
    const { read } = reader()
    expect(await read('a')).toEqual({ id: 'a', flag: false })
    await store.query('BEGIN')
    await store.query("UPDATE things SET flag = true WHERE id = 'a'")
    // PGlite has one connection: a read during the transaction sees its write.
    expect(await read('a')).toEqual({ id: 'a', flag: true })
    await store.query('ROLLBACK')
    expect(await read('a')).toEqual({ id: 'a', flag: false })
  })
})

describe('tablesWrittenBy', () => {
  test('names the table of each write, however it is spelt', () => {
    expect(tablesWrittenBy('SELECT * FROM wallets WHERE id = $1 FOR UPDATE')).toEqual([])
    expect(tablesWrittenBy("SELECT 'update wallets' AS x -- delete from wallets")).toEqual([])
    expect(tablesWrittenBy('UPDATE wallets SET permission_granted = $1 WHERE id = $2;')).toEqual(['wallets'])
    expect(tablesWrittenBy('update ONLY public."Wallets" w set x = 1')).toEqual(['wallets'])
    expect(tablesWrittenBy('DELETE FROM /* why */ "public" . refresh_tokens')).toEqual(['refresh_tokens'])
    expect(tablesWrittenBy('INSERT INTO gas_tanks (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET balance = gas_tanks.balance + 1')).toEqual(['gas_tanks'])
    expect(tablesWrittenBy('WITH gone AS (DELETE FROM a RETURNING id) UPDATE b SET n = n + 1 WHERE id IN (SELECT id FROM gone)')).toEqual(['a', 'b'])
  })

  test('anything it cannot read for sure may have written every table', () => {
    for (const sql of [
      'BEGIN',
      'COMMIT',
      'ROLLBACK',
      'TRUNCATE wallets',
      'SELECT 1; UPDATE wallets SET x = 1',
      "SELECT 1 /* '; */; DELETE FROM wallets",
      'MERGE INTO wallets USING x ON true WHEN MATCHED THEN DELETE',
      'WITH m AS (MERGE INTO wallets USING x ON true WHEN MATCHED THEN DELETE) SELECT 1',
      'DO $$ BEGIN UPDATE wallets SET x = 1; END $$',
      'CALL switch_off()',
      'ALTER TABLE wallets ADD COLUMN x int',
      // A backslash-escaped quote leaves an unmatched one: the literal's end is not known.
      "SELECT E'it\\'s' AS x, 1 AS y WHERE 'a' <> ''",
    ])
      expect(tablesWrittenBy(sql), sql).toBe('all')
  })
})

describe('the schema', () => {
  // The counter sees the statement, not what the database does because of it: a cascading foreign
  // key, a trigger or a rule would change rows of a table the statement never named.
  test('has no cascading foreign key, trigger or rule that writes a table a statement does not name', async () => {
    const migrated = await openStore({ dataDir: 'memory://' })
    try {
      const cascades = await migrated.query(
        "SELECT conname FROM pg_constraint WHERE contype = 'f' AND (confdeltype NOT IN ('a', 'r') OR confupdtype NOT IN ('a', 'r'))",
      )
      expect(cascades.rows).toEqual([])
      expect((await migrated.query('SELECT tgname FROM pg_trigger WHERE NOT tgisinternal')).rows).toEqual([])
      expect((await migrated.query("SELECT rulename FROM pg_rules WHERE schemaname = 'public'")).rows).toEqual([])
      // A migration that adds one must fail here: the same query finds a cascade when there is one.
      await migrated.exec('CREATE TABLE parents (id text PRIMARY KEY); CREATE TABLE children (parent text REFERENCES parents ON DELETE CASCADE)')
      expect((await migrated.query("SELECT conname FROM pg_constraint WHERE contype = 'f' AND confdeltype NOT IN ('a', 'r')")).rows).toHaveLength(1)
    } finally {
      await migrated.close()
    }
  })
})
