// Benchmark of the provider sandbox (not a test): sign-message requests per second and latency
// percentiles with 50 concurrent clients, plus the sandbox process's peak memory.
//   npm run bench:sandbox  [-- --clients 50 --seconds 10]
// The sandbox runs as its own process (PGlite, two anvils, HTTP on free ports, a throw-away data
// folder), so its memory is measured apart from the load generator's.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { verifyMessage, type Hex } from 'viem'
import { freePort } from '../sandbox/infra/ports.ts'

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? Number(args[index + 1]) : fallback
}
const clients = option('clients', 50)
const seconds = option('seconds', 10)

const root = fileURLToPath(new URL('..', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'wallet-kit-bench-'))
const port = await freePort()
const url = `http://localhost:${port}`
// A back end's call: the app's client secret, as PROTOCOL.md requires outside the provider's own origin.
const headers = { 'x-app-id': 'demo', 'x-environment': 'development', 'content-type': 'application/json', 'x-client-secret': 'demo-client-secret' }

const startServer = () =>
  spawn(process.execPath, ['--import', 'tsx', join(root, 'sandbox', 'main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), ANVIL_PORT: '0', SANDBOX_DATA_DIR: dataDir, SANDBOX_LOG: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
let server = startServer()
const stop = () => {
  if (server.exitCode === null) server.kill('SIGTERM')
}
process.on('exit', stop)
const exited = () => new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)))

/** Peak (VmHWM) and current (VmRSS) resident set size of a process from Linux /proc, in MiB. */
const procStatus = (pid: number, field: 'VmHWM' | 'VmRSS') => {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : Number.NaN
}
const peakRss = (pid: number) => procStatus(pid, 'VmHWM')
const currentRss = (pid: number) => procStatus(pid, 'VmRSS')

try {
  // First start on an empty data folder (creates the database cluster), then the measured start on
  // the existing folder, as `npm start` runs day to day.
  let started = Date.now()
  await waitFor(async () => (await fetch(`${url}/health`).catch(() => undefined))?.ok === true, 60_000)
  const firstStart = { seconds: (Date.now() - started) / 1000, peakRss: peakRss(server.pid!) }
  stop()
  await exited()
  server = startServer()
  started = Date.now()
  await waitFor(async () => (await fetch(`${url}/health`).catch(() => undefined))?.ok === true, 60_000)
  console.log(`sandbox up in ${((Date.now() - started) / 1000).toFixed(1)} s (first start on an empty folder: ${firstStart.seconds.toFixed(1)} s)`)
  const startupPeak = peakRss(server.pid!)

  const walletToken = await signUp('bench@example.com')
  const { address } = (await post('/api/v2/wallet/address', { network: 'local-1' }, walletToken)).data as { address: Hex }

  // Warm-up: JIT, connection pool, PGlite caches.
  await run(Math.min(clients, 10), 2, walletToken)
  const { latencies, errors, elapsed, samples } = await run(clients, seconds, walletToken)
  for (const sample of samples.slice(0, 20))
    if (!(await verifyMessage({ address, message: sample.message, signature: sample.signature }))) throw new Error('A signature does not verify')

  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN
  const result = {
    clients,
    seconds: Number(elapsed.toFixed(2)),
    requests: latencies.length,
    errors,
    requestsPerSecond: Math.round(latencies.length / elapsed),
    p50Ms: Number(pct(50).toFixed(2)),
    p99Ms: Number(pct(99).toFixed(2)),
    maxMs: Number((latencies.at(-1) ?? Number.NaN).toFixed(2)),
    firstStartPeakRssMiB: Math.round(firstStart.peakRss),
    sandboxPeakRssAtStartMiB: Math.round(startupPeak),
    sandboxPeakRssMiB: Math.round(peakRss(server.pid!)),
    sandboxRssNowMiB: Math.round(currentRss(server.pid!)),
  }
  console.log(`sign-message, ${clients} concurrent clients, ${result.seconds} s`)
  console.table(result)
  console.log(JSON.stringify(result))
} finally {
  stop()
  await exited()
  rmSync(dataDir, { recursive: true, force: true })
}

async function run(workers: number, duration: number, token: string) {
  const latencies: number[] = []
  const samples: { message: string; signature: Hex }[] = []
  let errors = 0
  const start = performance.now()
  const deadline = start + duration * 1000
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let n = 0; performance.now() < deadline; n++) {
        const message = `bench ${worker}:${n}`
        const sent = performance.now()
        const response = await fetch(`${url}/api/v2/wallet/sign-message`, {
          method: 'POST',
          headers: { ...headers, authorization: `Bearer ${token}` },
          body: JSON.stringify({ network: 'local-1', message }),
        })
        const body = (await response.json()) as { data: { signature: Hex } | null }
        latencies.push(performance.now() - sent)
        if (response.status !== 200 || !body.data) errors++
        else if (samples.length < 20 && n % 50 === 0) samples.push({ message, signature: body.data.signature })
      }
    }),
  )
  return { latencies, errors, samples, elapsed: (performance.now() - start) / 1000 }
}

async function post(path: string, body: unknown, token?: string) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  const json = (await response.json()) as { data: Record<string, unknown> }
  if (!response.ok) throw new Error(`${path}: ${JSON.stringify(json)}`)
  return json
}

async function signUp(email: string): Promise<string> {
  const sent = await fetch(`${url}/api/v2/auth/login-otp`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }),
  })
  const { data } = (await sent.json()) as { data: { verificationToken: string } }
  const [message] = (await (await fetch(`${url}/dev/api/inbox?to=${email}`)).json()) as { code: string }[]
  const login = await post('/api/v2/auth/verify-otp', { verificationToken: data.verificationToken, otp: message!.code })
  const created = await post('/api/v2/account/create', {}, login.data.accessToken as string)
  return created.data.walletToken as string
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The sandbox exited with code ${server.exitCode}`)
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error('The sandbox did not come up')
}
