import { spawn, type ChildProcess } from 'node:child_process'
import { anvilPath } from './anvil-path.ts'
import { freePort, isPortFree } from './ports.ts'

export type Anvil = {
  readonly chainId: number
  readonly port: number
  readonly rpcUrl: string
  stop(): Promise<void>
}

export type StartAnvilOptions = {
  chainId: number
  /** 0 picks a free port. */
  port?: number
  /** File anvil loads its state from and dumps it to, so balances survive a restart with the same data folder. */
  statePath?: string
  readyTimeoutMs?: number
}

export async function startAnvil(options: StartAnvilOptions): Promise<Anvil> {
  const { chainId, statePath, readyTimeoutMs = 15_000 } = options
  const port = options.port === 0 ? await freePort() : (options.port ?? 8545)
  // Checked first: otherwise an anvil already on the port would answer our readiness probe.
  if (!(await isPortFree(port))) throw new Error(`anvil port ${port} is already in use`)
  const args = ['--chain-id', String(chainId), '--port', String(port), '--host', '127.0.0.1', '--silent', '--accounts', '0']
  // --state-interval also dumps periodically, so a hard kill loses at most a few seconds of chain state.
  if (statePath) args.push('--state', statePath, '--state-interval', '5')

  const child = spawn(anvilPath(), args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000)
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  // A synchronous kill on exit: the parent may die without awaiting stop(), anvil must not outlive it.
  const killOnExit = () => child.kill('SIGTERM')
  process.on('exit', killOnExit)

  const rpcUrl = `http://127.0.0.1:${port}`
  const stop = async () => {
    process.off('exit', killOnExit)
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }

  try {
    await waitReady(rpcUrl, chainId, child, exited, readyTimeoutMs)
  } catch (error) {
    await stop()
    const detail = stderr.trim() ? `: ${stderr.trim()}` : ''
    throw new Error(`anvil did not start on port ${port}${detail}`, { cause: error })
  }
  return { chainId, port, rpcUrl, stop }
}

async function waitReady(
  rpcUrl: string,
  chainId: number,
  child: ChildProcess,
  exited: Promise<number | null>,
  timeoutMs: number,
) {
  let dead = false
  void exited.then(() => (dead = true))
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (dead) throw new Error(`anvil exited with code ${child.exitCode}`)
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
      const body = (await response.json()) as { result?: string }
      if (body.result && Number(body.result) === chainId && !dead) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('timed out waiting for eth_chainId')
}
