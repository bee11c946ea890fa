import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The whole database surface the sandbox uses, so PGlite and a real PostgreSQL are interchangeable. */
export type Store = {
  /** One statement with `$1`-style parameters. */
  query<row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: row[]; rowCount: number }>
  /** A script of several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>
  close(): Promise<void>
  /**
   * Short-lived copies of rows read often and written rarely (apps, services/app-config/queries.ts).
   * It belongs to the database, not to a module, so each sandbox has its own and whoever writes
   * those rows through this store clears their entries.
   */
  readonly readCache: Map<string, unknown>
  /**
   * A counter that moves whenever a statement through this store may have written rows of `table`
   * (INSERT, UPDATE, DELETE; and for every table at once TRUNCATE, DDL, BEGIN / COMMIT / ROLLBACK, any
   * `exec` script and any statement tablesWrittenBy cannot read for sure). It moves
   * when the statement is sent and again when it has finished, so an answer read while it ran is not
   * mistaken for a current one. See cachedRow: answers about existing rows may be kept while it stands still.
   */
  changes(table: string): number
}

export type OpenStoreOptions = {
  /** PGlite data folder; ignored when databaseUrl is set. */
  dataDir: string
  /** A PostgreSQL connection string; when set the `pg` driver is used instead of PGlite. */
  databaseUrl?: string | undefined
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const store = options.databaseUrl ? await openPg(options.databaseUrl) : await openPglite(options.dataDir)
  try {
    await migrate(store)
  } catch (error) {
    await store.close()
    throw error
  }
  return store
}

/** An SQL identifier, plain or double-quoted. */
const identifier = String.raw`(?:"(?:[^"]|"")+"|[a-z_][\w$]*)`
/** What follows a write keyword: the table written, schema-qualified or not (its last part is the table). */
const writeTarget = new RegExp(String.raw`^(?:insert\s+into|update|delete\s+from)\s+(?:only\s+)?(?:${identifier}\s*\.\s*)?(${identifier})`, 'i')

/**
 * The tables one statement may write, or 'all' when that cannot be told for sure. Only a single
 * SELECT, INSERT, UPDATE or DELETE (or WITH ... of those) is read; whatever else it is (a
 * transaction's BEGIN, COMMIT or ROLLBACK, TRUNCATE, DDL, several statements, a dollar-quoted body)
 * is 'all', and so is a write keyword whose table the pattern cannot name: a missed write would let
 * cachedRow answer a row that is no longer there.
 */
export function tablesWrittenBy(sql: string): string[] | 'all' {
  // Literals and comments name no table (and could hide a keyword or a semicolon); quoted names stay.
  const text = sql
    .replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\//g, (part) => (part.startsWith("'") ? "''" : part.startsWith('"') ? part : ' '))
    .trim()
    .replace(/;\s*$/, '')
  if (text.includes(';') || /\$(?!\d)/.test(text) || /'|\/\*/.test(text.replace(/''/g, ''))) return 'all'
  if (!/^(select|with|insert|update|delete)\b/i.test(text)) return 'all'
  // Row locks and an upsert's DO UPDATE write nothing but what the statement's own target names.
  const writes = text.replace(/\bfor\s+(?:no\s+key\s+)?update\b/gi, ' ').replace(/\bdo\s+update\s+set\b/gi, ' ')
  const tables = new Set<string>()
  for (const keyword of writes.matchAll(/\b(?:insert|update|delete|merge|truncate)\b/gi)) {
    const named = writeTarget.exec(writes.slice(keyword.index))
    if (!named) return 'all'
    const name = named[1]!
    tables.add((name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name).toLowerCase())
  }
  return [...tables]
}

/** A store's write statements, counted per table; see Store.changes. */
function changeCounter() {
  const perTable = new Map<string, number>()
  let everything = 0
  const tablesChanged = tablesWrittenBy
  const bump = (tables: string[] | 'all') => {
    if (tables === 'all') everything++
    else for (const table of tables) perTable.set(table, (perTable.get(table) ?? 0) + 1)
  }
  return {
    changes: (table: string) => everything + (perTable.get(table.toLowerCase()) ?? 0),
    /** Runs one statement, moving the counters of what it may change before and after it. */
    async around<result>(sql: string, run: () => Promise<result>, script = false): Promise<result> {
      const tables = script ? 'all' : tablesChanged(sql)
      bump(tables)
      try {
        return await run()
      } finally {
        bump(tables)
      }
    },
  }
}

async function openPglite(dataDir: string): Promise<Store> {
  const { PGlite } = await import('@electric-sql/pglite')
  // PostgreSQL's default 128 MB of shared buffers is most of PGlite's memory; a sandbox's data fits in far less.
  const db = await PGlite.create(dataDir, { postgresqlconf: ['shared_buffers=32MB', 'work_mem=2MB', 'temp_buffers=2MB'] })
  const counter = changeCounter()
  return {
    async query<row>(sql: string, params: readonly unknown[] = []) {
      const result = await counter.around(sql, () => db.query<row>(sql, [...params]))
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length }
    },
    async exec(sql) {
      await counter.around(sql, () => db.exec(sql), true)
    },
    close: () => db.close(),
    readCache: new Map(),
    changes: counter.changes,
  }
}

// The same tiny surface on the `pg` driver; postgres.test.ts runs it against a real server.
async function openPg(connectionString: string): Promise<Store> {
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString })
  const counter = changeCounter()
  return {
    async query<row>(sql: string, params: readonly unknown[] = []) {
      const result = await counter.around(sql, () => pool.query(sql, [...params]))
      return { rows: result.rows as row[], rowCount: result.rowCount ?? result.rows.length }
    },
    async exec(sql) {
      await counter.around(sql, () => pool.query(sql), true)
    },
    close: () => pool.end(),
    readCache: new Map(),
    changes: counter.changes,
  }
}

const migrationsDir = fileURLToPath(new URL('../../migrations/', import.meta.url))

/** Applies `migrations/NNN_name.sql` files in order, each once, each in its own transaction. */
export async function migrate(store: Store, dir = migrationsDir): Promise<string[]> {
  await store.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())')
  const { rows } = await store.query<{ name: string }>('SELECT name FROM schema_migrations')
  const applied = new Set(rows.map((row) => row.name))
  const pending = readdirSync(dir)
    .filter((name) => /^\d+_[\w-]+\.sql$/.test(name) && !applied.has(name))
    .sort()
  for (const name of pending) {
    const sql = readFileSync(join(dir, name), 'utf8')
    try {
      await store.exec(`BEGIN;\n${sql}\n;INSERT INTO schema_migrations (name) VALUES ('${name}');\nCOMMIT;`)
    } catch (error) {
      await store.exec('ROLLBACK').catch(() => {})
      throw new Error(`Migration ${name} failed`, { cause: error })
    }
  }
  return pending
}

/** PostgreSQL's unique_violation, the same code from PGlite and pg. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
}

/**
 * A row read often and changed rarely (a wallet's signing row, an app with a session's revocation
 * state), kept in the store's readCache under `key` while nothing has changed rows of `table` (or of
 * any of the tables listed, for a row read from several) through this store
 * (Store.changes) and for at most `maxAgeMs`, the bound on a change made by anything else (another
 * process on the same PostgreSQL; one sandbox process owns its data folder, infra/lock.ts). A write
 * sent while the row was being read keeps that answer out. `undefined` (nothing found) is never kept.
 */
export async function cachedRow<row>(
  store: Store,
  table: string | readonly string[],
  key: string,
  load: () => Promise<row | undefined>,
  options: { maxAgeMs: number; maxEntries?: number } = { maxAgeMs: 1000 },
): Promise<row | undefined> {
  const tables = typeof table === 'string' ? [table] : table
  const changesOf = () => tables.reduce((sum, name) => sum + store.changes(name), 0)
  const cacheKey = `rows:${tables.join(',')}`
  let cache = store.readCache.get(cacheKey) as Map<string, { row: row; changes: number; until: number }> | undefined
  if (!cache) {
    cache = new Map()
    store.readCache.set(cacheKey, cache)
  }
  const hit = cache.get(key)
  const now = Date.now()
  if (hit && hit.changes === changesOf() && hit.until > now) return hit.row
  const changes = changesOf()
  const row = await load()
  cache.delete(key)
  if (row !== undefined && changes === changesOf()) {
    cache.set(key, { row, changes, until: now + options.maxAgeMs })
    if (cache.size > (options.maxEntries ?? 10_000)) cache.delete(cache.keys().next().value as string)
  }
  return row
}
