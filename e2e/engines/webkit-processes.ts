import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import type { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort } from '../../sandbox/infra/ports.ts'

/** Xvfb from the PATH unless named. */
const xvfbPath = process.env.XVFB_PATH ?? 'Xvfb'
const webkitWebDriverPath = process.env.WEBKIT_WEBDRIVER_PATH ?? '/usr/bin/WebKitWebDriver'
/** Debian ships MiniBrowser in the architecture's library folder (x86_64-linux-gnu, aarch64-linux-gnu…). */
export const miniBrowserPath =
  process.env.MINIBROWSER_PATH ??
  readdirSync('/usr/lib', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.endsWith('-linux-gnu'))
    .map((entry) => `/usr/lib/${entry.name}/webkit2gtk-4.1/MiniBrowser`)
    .find((path) => existsSync(path)) ??
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

/** The X server and the driver under it; MiniBrowser is the driver's child, started per session. */
export type WebkitProcesses = {
  /** http://127.0.0.1:<port> of WebKitWebDriver. */
  readonly driverUrl: string
  /** Kills the driver, everything it started (MiniBrowser and its WebKit processes), then Xvfb. */
  kill(): Promise<void>
}

/** Every process below `root` (children first found through /proc), `root` excluded. */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // The command name is in parentheses and may hold spaces: the fields after it are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parentOf.set(Number(entry), ppid)
    } catch {
      // Ended meanwhile.
    }
  }
  const found: number[] = []
  const queue = [root]
  while (queue.length) {
    const parent = queue.shift()!
    for (const [pid, ppid] of parentOf) {
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid)
        queue.push(pid)
      }
    }
  }
  return found
}

const signal = (pid: number, sig: NodeJS.Signals) => {
  try {
    process.kill(pid, sig)
  } catch {
    // Already gone.
  }
}

const exited = (child: ChildProcess, ms: number) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : Promise.race([new Promise<void>((done) => child.once('exit', () => done())), sleep(ms)])

/**
 * The processes started here and not ended yet. If the test process exits without close() (a
 * worker torn down, an uncaught error), they are killed on its way out: an exit handler can only
 * do synchronous work, and a signal is that.
 */
const running = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of running) if (child.pid !== undefined) for (const p of [...descendants(child.pid), child.pid]) signal(p, 'SIGKILL')
})

/** Ends `child` and every process it started: TERM, a moment, then KILL for what is left. */
async function end(child: ChildProcess): Promise<void> {
  running.delete(child)
  const pid = child.pid
  if (pid === undefined) return
  const tree = [pid, ...descendants(pid)]
  for (const p of tree) signal(p, 'SIGTERM')
  await exited(child, 2000)
  for (const p of [...tree, ...descendants(pid)]) signal(p, 'SIGKILL')
  await exited(child, 1000)
}

/** Starts Xvfb on a display it picks itself (-displayfd: the first free one) and resolves its number. */
async function startXvfb(): Promise<{ display: string; xvfb: ChildProcess }> {
  const xvfb = spawn(xvfbPath, ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  })
  running.add(xvfb)
  const stderr: string[] = []
  xvfb.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()))
  const fd = xvfb.stdio[3] as Readable
  try {
    const number = await new Promise<string>((resolve, reject) => {
      let text = ''
      const timer = setTimeout(() => reject(new Error('Xvfb did not report a display within 10 s')), 10_000)
      fd.on('data', (chunk: Buffer) => {
        text += chunk.toString()
        if (text.includes('\n')) {
          clearTimeout(timer)
          resolve(text.trim())
        }
      })
      xvfb.once('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
      xvfb.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`Xvfb exited (${code}): ${stderr.join('').slice(-500)}`))
      })
    })
    return { display: `:${number}`, xvfb }
  } catch (error) {
    await end(xvfb)
    throw error
  }
}

/** Resolves once the driver answers /status with ready. */
async function driverReady(url: string, driver: ChildProcess, log: string[]): Promise<void> {
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode}): ${log.join('').slice(-500)}`)
    try {
      const res = await fetch(`${url}/status`)
      const body = (await res.json()) as { value?: { ready?: boolean } }
      if (body.value?.ready) return
    } catch {
      // Not listening yet.
    }
    await sleep(100)
  }
  throw new Error(`WebKitWebDriver did not become ready at ${url}: ${log.join('').slice(-500)}`)
}

/** Xvfb, then WebKitWebDriver on a free port with DISPLAY pointing at it. */
export async function startWebkitProcesses(): Promise<WebkitProcesses> {
  const { display, xvfb } = await startXvfb()
  let driver: ChildProcess | undefined
  const kill = async () => {
    if (driver) await end(driver)
    await end(xvfb)
  }
  try {
    const port = await freePort()
    const log: string[] = []
    driver = spawn(webkitWebDriverPath, [`--port=${port}`, '--host=127.0.0.1'], {
      env: { ...process.env, DISPLAY: display },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.add(driver)
    driver.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()))
    driver.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()))
    driver.once('error', (error) => log.push(String(error)))
    const driverUrl = `http://127.0.0.1:${port}`
    await driverReady(driverUrl, driver, log)
    return { driverUrl, kill }
  } catch (error) {
    await kill()
    throw error
  }
}
