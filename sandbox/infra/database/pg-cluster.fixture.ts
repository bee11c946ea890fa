// Test helper: a throw-away PostgreSQL cluster on a free loopback port, from the server binaries
// scripts/ensure-postgres.sh installs. PostgreSQL refuses to run as root, so as root the cluster
// belongs to the `postgres` system user and its commands run through runuser.
import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../ports.ts'

export type PgCluster = { url: string; stop(): Promise<void> }

/** Where initdb and pg_ctl live: PG_BIN, the newest /usr/lib/postgresql/<version>/bin, or PATH. */
export function findPgBin(): string | undefined {
  if (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))) : []
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]
  if (newest) return join(root, newest, 'bin')
  try {
    const initdb = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim()
    return initdb ? join(initdb, '..') : undefined
  } catch {
    return undefined
  }
}

export async function startPgCluster(bin: string): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-kit-pg-'))
  const data = join(dir, 'data')
  const asRoot = process.getuid?.() === 0
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), args]
    execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 })
  }
  if (asRoot) {
    const { uid, gid } = postgresUser()
    chownSync(dir, uid, gid)
    chmodSync(dir, 0o700)
  }
  const port = await freePort()
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'])
    run('pg_ctl', [
      '-D',
      data,
      '-w',
      '-t',
      '30',
      '-l',
      join(dir, 'server.log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ])
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`Could not start a PostgreSQL cluster: ${String((error as { stderr?: Buffer }).stderr ?? error)}`)
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

function postgresUser(): { uid: number; gid: number } {
  const [uid, gid] = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .concat(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
  return { uid: Number(uid), gid: Number(gid) }
}
