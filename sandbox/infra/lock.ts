import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * One sandbox per data folder: two PGlite instances on one folder corrupt it. The lock holds the
 * owner's pid; a lock whose process is gone (a crash) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, 'sandbox.lock')
  const token = `${process.pid}:${Date.now()}:${Math.random()}`
  for (let tries = 0; tries < 2; tries++) {
    try {
      writeFileSync(path, token, { flag: 'wx' })
      return () => {
        if (readOwner(path) === token) rmSync(path, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = readOwner(path)
      const pid = Number(owner?.split(':')[0])
      if (owner !== undefined && isAlive(pid)) throw new Error(`The data folder ${dataDir} is in use by another sandbox (pid ${pid})`)
      rmSync(path, { force: true })
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}`)
}

function readOwner(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
