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

async function openPglite(dataDir: string): Promise<Store> {
  const { PGlite } = await import('@electric-sql/pglite')
  // PostgreSQL's default 128 MB of shared buffers is most of PGlite's memory; a sandbox's data fits in far less.
  const db = await PGlite.create(dataDir, { postgresqlconf: ['shared_buffers=32MB', 'work_mem=2MB', 'temp_buffers=2MB'] })
  return {
    async query<row>(sql: string, params: readonly unknown[] = []) {
      const result = await db.query<row>(sql, [...params])
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length }
    },
    async exec(sql) {
      await db.exec(sql)
    },
    close: () => db.close(),
    readCache: new Map(),
  }
}

// The same tiny surface on the `pg` driver; postgres.test.ts runs it against a real server.
async function openPg(connectionString: string): Promise<Store> {
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString })
  return {
    async query<row>(sql: string, params: readonly unknown[] = []) {
      const result = await pool.query(sql, [...params])
      return { rows: result.rows as row[], rowCount: result.rowCount ?? result.rows.length }
    },
    async exec(sql) {
      await pool.query(sql)
    },
    close: () => pool.end(),
    readCache: new Map(),
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
