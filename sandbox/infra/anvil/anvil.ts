import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { anvilPath } from './anvil-path.ts'
import { ipcRequest, serveChain } from './anvil-guard.ts'
import { freePort } from '../ports.ts'

export type Anvil = {
  readonly chainId: number
  /** The port of the chain's RPC URL (the guard, anvil-guard.ts). */
  readonly port: number
  readonly rpcUrl: string
  /** Whether anvil runs in its own network namespace (its HTTP port reachable by nobody). */
  readonly isolated: boolean
  /** The running anvil's process id (a new one after each restart; undefined while it is down). */
  readonly pid: number | undefined
  /** How many times anvil was started again after exiting on its own. */
  readonly restarts: number
  stop(): Promise<void>
}

export type StartAnvilOptions = {
  chainId: number
  /** 0 picks a free port. */
  port?: number
  /** File anvil loads its state from and dumps it to, so balances survive a restart with the same data folder. */
  statePath?: string
  readyTimeoutMs?: number
  /** How long after an unexpected exit anvil is started again (doubled after each failed start, up to 30 s). Default 1 s. */
  restartDelayMs?: number
}

/**
 * Whether this machine runs a program in a new user and network namespace (Linux `unshare -rn`,
 * no root needed where unprivileged user namespaces are on). anvil then listens only on the
 * namespace's own loopback, which no other program and no browser can reach; the sandbox talks
 * to it over its IPC socket. Elsewhere (macOS, user namespaces off) anvil's HTTP port is a random
 * loopback port with CORS off, and the sandbox says so once at start (server.ts).
 */
export function anvilIsolation(): boolean {
  // Asked at each start (a few milliseconds), not remembered in the module.
  return process.platform === 'linux' && process.env.SANDBOX_ANVIL_ISOLATION !== 'off' && spawnSync('unshare', ['-rn', 'true']).status === 0
}

/** Whether util-linux's setpriv can give anvil a parent-death signal (Linux). */
const parentDeathSignal = () => process.platform === 'linux' && spawnSync('setpriv', ['--pdeathsig', 'TERM', 'true']).status === 0

/** The longest wait between two attempts to start a crashed anvil again. */
const maxRestartDelayMs = 30_000

type Running = { child: ChildProcess; exited: Promise<number | null>; stderr: () => string }

/**
 * Starts anvil for one chain behind its guard (the chain's RPC URL), and keeps it running: an anvil
 * that exits on its own (a crash, an OOM kill, someone's kill) is started again on the same IPC
 * socket, so the RPC URL and every client on it stay the same, with the state it last saved. While it
 * is down the guard answers each request at once with 'Chain unavailable' (502).
 */
export async function startAnvil(options: StartAnvilOptions): Promise<Anvil> {
  const { chainId, statePath, readyTimeoutMs = 15_000, restartDelayMs = 1_000 } = options
  // mkdtemp makes the folder 0700: only this user reaches the socket.
  const dir = mkdtempSync(join(tmpdir(), 'wallet-kit-anvil-'))
  const ipcPath = join(dir, 'anvil.ipc')
  // The chain's RPC URL first: a port in use fails before anvil starts.
  const guard = await serveChain(ipcPath, options.port ?? 8545).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true })
    throw error
  })
  const { port } = guard

  const isolated = anvilIsolation()
  const pdeathsig = parentDeathSignal()
  const spawnAnvil = async (): Promise<Running> => {
    // A killed anvil leaves its socket file behind; the next one must be able to bind the path.
    rmSync(ipcPath, { force: true })
    // In its own namespace anvil may keep its default port; outside, a random one nobody is told about.
    const innerPort = isolated ? 8545 : await freePort()
    const args = [
      '--chain-id',
      String(chainId),
      '--port',
      String(innerPort),
      '--host',
      '127.0.0.1',
      '--no-cors',
      '--ipc',
      ipcPath,
      '--silent',
      '--accounts',
      '0',
    ]
    // --state-interval also dumps periodically, so a hard kill loses at most a few seconds of chain state.
    if (statePath) args.push('--state', statePath, '--state-interval', '5')
    // unshare and setpriv exec in place: the child is anvil itself, and stop() kills it. setpriv makes
    // the kernel end it when the sandbox dies (SIGKILL, OOM, a crashed test worker), where no exit
    // hook runs: an orphan would keep dumping an old state over the next run's chain.
    const command = [...(isolated ? ['unshare', '-rn'] : []), ...(pdeathsig ? ['setpriv', '--pdeathsig', 'TERM'] : []), anvilPath(), ...args]
    const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000)
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    return { child, exited, stderr: () => stderr.trim() }
  }
  /** Kills a running anvil (TERM, then KILL after 5 s) and waits for it to be gone. */
  const kill = async ({ child, exited }: Running) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    }
  }

  let current: Running | undefined
  let stopping = false
  let restarts = 0
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  // A synchronous kill on exit: the parent may die without awaiting stop(), anvil must not outlive it.
  const killOnExit = () => current?.child.kill('SIGTERM')
  process.on('exit', killOnExit)

  const stop = async () => {
    stopping = true
    clearTimeout(retryTimer)
    process.off('exit', killOnExit)
    await new Promise((resolve) => guard.server.close(resolve))
    if (current) await kill(current)
    rmSync(dir, { recursive: true, force: true })
  }

  /** Starts anvil and waits until it answers; a failed start is killed and rejected. */
  const launch = async (): Promise<Running> => {
    const running = await spawnAnvil()
    current = running
    try {
      await waitReady(ipcPath, chainId, running.child, running.exited, readyTimeoutMs)
      return running
    } catch (error) {
      await kill(running)
      const detail = running.stderr() ? `: ${running.stderr()}` : ''
      throw new Error(`anvil did not start for chain ${chainId}${detail}`, { cause: error })
    }
  }

  /** Watches a started anvil: when it exits on its own, starts it again (backing off while starts fail). */
  const supervise = (running: Running) => {
    void running.exited.then((code) => {
      if (stopping) return
      const how = running.child.signalCode ? `signal ${running.child.signalCode}` : `code ${code}`
      console.warn(`sandbox: anvil of chain ${chainId} exited (${how}); starting it again in ${restartDelayMs} ms`)
      retry(restartDelayMs)
    })
  }
  const retry = (delay: number) => {
    retryTimer = setTimeout(async () => {
      if (stopping) return
      try {
        const running = await launch()
        if (stopping) return void kill(running)
        restarts++
        console.warn(`sandbox: anvil of chain ${chainId} is running again`)
        supervise(running)
      } catch (error) {
        if (stopping) return
        const next = Math.min(delay * 2, maxRestartDelayMs)
        console.warn(`sandbox: ${(error as Error).message}; trying again in ${next} ms`)
        retry(next)
      }
    }, delay)
    retryTimer.unref?.()
  }

  try {
    supervise(await launch())
  } catch (error) {
    await stop()
    throw error
  }
  return {
    chainId,
    port,
    rpcUrl: `http://127.0.0.1:${port}`,
    isolated,
    get pid() {
      const child = current?.child
      return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined
    },
    get restarts() {
      return restarts
    },
    stop,
  }
}

async function waitReady(ipcPath: string, chainId: number, child: ChildProcess, exited: Promise<number | null>, timeoutMs: number) {
  let dead = false
  void exited.then(() => (dead = true))
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (dead) throw new Error(`anvil exited with code ${child.exitCode}`)
    try {
      const body = JSON.parse(await ipcRequest(ipcPath, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }), 2_000)) as {
        result?: string
      }
      if (body.result && Number(body.result) === chainId && !dead) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('timed out waiting for eth_chainId')
}
