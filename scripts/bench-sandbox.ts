// Benchmark of the provider sandbox (not a test): with 50 concurrent clients, sign-message,
// send-transaction and login requests per second with latency percentiles and errors, the sandbox
// process's peak memory, then a mixed load of all three (and balance reads) for five minutes and
// how much its memory grew over it.
//   npm run bench:sandbox  [-- --clients 50 --seconds 10 --mixed-seconds 300 --cpu-prof <dir>]
// The sandbox runs as its own process (PGlite, two anvils, HTTP on free ports, a throw-away data
// folder), so its memory and CPU time are measured apart from the load generator's.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { verifyMessage, type Hex } from 'viem'
import { freePort } from '../sandbox/infra/ports.ts'
import { type Answer, cpuMs, currentRss, nextLoopback, peakRss, postFrom } from './bench/load.ts'

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? Number(args[index + 1]) : fallback
}
const textOption = (name: string) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? args[index + 1] : undefined
}
const clients = option('clients', 50)
const seconds = option('seconds', 10)
const mixedSeconds = option('mixed-seconds', 300)
// `--cpu-prof <dir>`: the measured sandbox process writes a V8 CPU profile there when it stops.
const cpuProfDir = textOption('cpu-prof')

const root = fileURLToPath(new URL('..', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'wallet-kit-bench-'))
const port = await freePort()
const url = `http://localhost:${port}`
// A back end's call: outside the provider's own origin the service wants the app's client secret.
const headers = { 'x-app-id': 'demo', 'x-environment': 'development', 'content-type': 'application/json', 'x-client-secret': 'demo-client-secret' }

const startServer = (profile = false) =>
  spawn(
    process.execPath,
    [...(profile && cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : []), '--import', 'tsx', join(root, 'sandbox', 'main.ts')],
    {
      cwd: root,
      env: { ...process.env, PORT: String(port), ANVIL_PORT: '0', SANDBOX_DATA_DIR: dataDir, SANDBOX_LOG: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
let server = startServer()
const stop = () => {
  if (server.exitCode === null) server.kill('SIGTERM')
}
process.on('exit', stop)
const exited = () => new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)))

type Wallet = { walletToken: string; address: Hex }
type Kind = 'signMessage' | 'sendTransaction' | 'login' | 'balance'
/** One client's next call of `kind`; resolves to whether it succeeded. */
type Job = (kind: Kind, worker: number, n: number) => Promise<boolean>

/** The first answers of each kind of failure, for the report. */
const errorSamples = new Map<string, string>()

try {
  // First start on an empty data folder (creates the database cluster), then the measured start on
  // the existing folder, as `npm start` runs day to day.
  let started = Date.now()
  await waitFor(async () => (await fetch(`${url}/health`).catch(() => undefined))?.ok === true, 60_000)
  const firstStart = { seconds: (Date.now() - started) / 1000, peakRss: peakRss(server.pid!) }
  stop()
  await exited()
  server = startServer(true)
  started = Date.now()
  await waitFor(async () => (await fetch(`${url}/health`).catch(() => undefined))?.ok === true, 60_000)
  const startSeconds = (Date.now() - started) / 1000
  console.log(`sandbox up in ${startSeconds.toFixed(1)} s (first start on an empty folder: ${firstStart.seconds.toFixed(1)} s)`)
  const startupPeak = peakRss(server.pid!)

  // One wallet per client: a wallet's transactions take nonces in turn, so clients must not share one.
  const wallets: Wallet[] = []
  for (let i = 0; i < clients; i += 10)
    wallets.push(...(await Promise.all(Array.from({ length: Math.min(10, clients - i) }, (_, j) => signUp(`bench-${i + j}@example.com`)))))
  console.log(`${wallets.length} wallets created`)
  const samples: { address: Hex; message: string; signature: Hex }[] = []

  const job: Job = async (kind, worker, n) => {
    const wallet = wallets[worker % wallets.length]!
    if (kind === 'login') return login(`login-${worker}-${n}-${Date.now()}@example.com`)
    const path = { signMessage: 'sign-message', sendTransaction: 'send-transaction', balance: 'balance-coin' }[kind]
    const message = `bench ${worker}:${n}`
    const body =
      kind === 'signMessage'
        ? { network: 'local-1', message }
        : kind === 'sendTransaction'
          ? { network: 'local-1', transaction: { from: wallet.address, to: wallet.address, value: '0x1', data: '0x' } }
          : { network: 'local-1' }
    const response = await fetch(`${url}/api/v2/wallet/${path}`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${wallet.walletToken}` },
      body: JSON.stringify(body),
    })
    const json = (await response.json()) as { data: Record<string, unknown> | null }
    if (response.status !== 200 || !json.data) {
      noteError(kind, `${response.status} ${JSON.stringify(json).slice(0, 200)}`)
      return false
    }
    if (kind === 'signMessage' && samples.length < 20 && n % 50 === 0) samples.push({ address: wallet.address, message, signature: json.data.signature as Hex })
    return true
  }

  // Warm-up: JIT, connection pool, PGlite caches.
  await run(Math.min(clients, 10), 2, job, () => 'signMessage')
  const signMessage = await measured(clients, seconds, job, () => 'signMessage')
  for (const sample of samples) if (!(await verifyMessage(sample))) throw new Error('A signature does not verify')
  const sendTransaction = await measured(clients, seconds, job, () => 'sendTransaction')
  const logins = await measured(clients, seconds, job, () => 'login')
  const peakAfterPhases = peakRss(server.pid!)

  // Mixed: of every 20 calls, 12 sign-message, 3 send-transaction, 2 logins and 3 balance reads.
  const mix: Kind[] = [
    ...Array<Kind>(12).fill('signMessage'),
    ...Array<Kind>(3).fill('sendTransaction'),
    ...Array<Kind>(2).fill('login'),
    ...Array<Kind>(3).fill('balance'),
  ]
  const rssAtMixedStart = currentRss(server.pid!)
  let mixedPeak = rssAtMixedStart
  const sampler = setInterval(() => (mixedPeak = Math.max(mixedPeak, currentRss(server.pid!))), 1000)
  const mixed = await measured(clients, mixedSeconds, job, (worker, n) => mix[(worker * 7 + n) % mix.length]!)
  clearInterval(sampler)
  const rssAtMixedEnd = currentRss(server.pid!)

  const result = {
    clients,
    seconds: signMessage.seconds,
    // sign-message, at the top level as before.
    requests: signMessage.requests,
    errors: signMessage.errors,
    requestsPerSecond: signMessage.requestsPerSecond,
    p50Ms: signMessage.p50Ms,
    p99Ms: signMessage.p99Ms,
    maxMs: signMessage.maxMs,
    cpuMsPerRequest: signMessage.cpuMsPerRequest,
    signMessage,
    sendTransaction,
    login: logins,
    startSeconds: Number(startSeconds.toFixed(1)),
    firstStartSeconds: Number(firstStart.seconds.toFixed(1)),
    firstStartPeakRssMiB: Math.round(firstStart.peakRss),
    sandboxPeakRssAtStartMiB: Math.round(startupPeak),
    sandboxPeakRssMiB: Math.round(peakAfterPhases),
    mixed: {
      ...mixed,
      rssAtStartMiB: Math.round(rssAtMixedStart),
      rssAtEndMiB: Math.round(rssAtMixedEnd),
      rssGrowthMiB: Math.round(rssAtMixedEnd - rssAtMixedStart),
      peakRssMiB: Math.round(mixedPeak),
    },
    sandboxPeakRssOverallMiB: Math.round(peakRss(server.pid!)),
    errorSamples: [...errorSamples.values()].slice(0, 5),
  }
  console.table(Object.fromEntries(['signMessage', 'sendTransaction', 'login', 'mixed'].map((name) => [name, summary(result[name as 'mixed'])])))
  console.log(JSON.stringify(result))
} finally {
  stop()
  await exited()
  rmSync(dataDir, { recursive: true, force: true })
}

function summary(phase: Record<string, unknown>) {
  const { requestsPerSecond, p50Ms, p99Ms, errors, cpuMsPerRequest } = phase
  return { requestsPerSecond, p50Ms, p99Ms, errors, cpuMsPerRequest }
}

function noteError(kind: string, text: string) {
  if (!errorSamples.has(`${kind} ${text.slice(0, 40)}`)) errorSamples.set(`${kind} ${text.slice(0, 40)}`, `${kind}: ${text}`)
}

/** `run` with the sandbox's CPU time, per kind of call when the phase mixes them. */
async function measured(workers: number, duration: number, job: Job, pick: (worker: number, n: number) => Kind) {
  console.log(`${workers} clients, ${duration} s…`)
  const cpuBefore = cpuMs(server.pid!)
  const { byKind, elapsed } = await run(workers, duration, job, pick)
  const cpu = cpuMs(server.pid!) - cpuBefore
  const all = [...byKind.values()].reduce((sum, kind) => ({ latencies: sum.latencies.concat(kind.latencies), errors: sum.errors + kind.errors }), {
    latencies: [] as number[],
    errors: 0,
  })
  const stats = (latencies: number[], errors: number) => {
    latencies.sort((a, b) => a - b)
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN
    return {
      requests: latencies.length,
      errors,
      requestsPerSecond: Math.round(latencies.length / elapsed),
      p50Ms: Number(pct(50).toFixed(2)),
      p99Ms: Number(pct(99).toFixed(2)),
      maxMs: Number((latencies.at(-1) ?? Number.NaN).toFixed(2)),
    }
  }
  const kinds = Object.fromEntries([...byKind].map(([kind, { latencies, errors }]) => [kind, stats(latencies, errors)]))
  return {
    seconds: Number(elapsed.toFixed(2)),
    ...stats(all.latencies, all.errors),
    cpuMsPerRequest: Number((cpu / Math.max(1, all.latencies.length)).toFixed(2)),
    ...(byKind.size > 1 ? { kinds } : {}),
  }
}

async function run(workers: number, duration: number, job: Job, pick: (worker: number, n: number) => Kind) {
  const byKind = new Map<Kind, { latencies: number[]; errors: number }>()
  const start = performance.now()
  const deadline = start + duration * 1000
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let n = 0; performance.now() < deadline; n++) {
        const kind = pick(worker, n)
        const entry = byKind.get(kind) ?? { latencies: [], errors: 0 }
        byKind.set(kind, entry)
        const sent = performance.now()
        const good = await job(kind, worker, n).catch((error: unknown) => {
          noteError(kind, String(error))
          return false
        })
        entry.latencies.push(performance.now() - sent)
        if (!good) entry.errors++
      }
    }),
  )
  return { byKind, elapsed: (performance.now() - start) / 1000 }
}

/** One e-mail login as the widget runs it: ask for a code, read it from the dev inbox, send it back. */
async function loginTokens(email: string): Promise<{ status: number; json: Answer }> {
  const from = nextLoopback()
  const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' }
  const sent = await postFrom(`${url}/api/v2/auth/login-otp`, form, from, new URLSearchParams({ email }).toString())
  if (sent.status !== 200 || !sent.json.data) return sent
  const [message] = (await (await fetch(`${url}/dev/api/inbox?to=${encodeURIComponent(email)}`)).json()) as { code: string }[]
  const body = JSON.stringify({ verificationToken: sent.json.data.verificationToken, otp: message!.code })
  return postFrom(`${url}/api/v2/auth/verify-otp`, headers, from, body)
}

async function login(email: string): Promise<boolean> {
  const answer = await loginTokens(email)
  if (answer.status !== 200 || typeof answer.json.data?.accessToken !== 'string') {
    noteError('login', `${answer.status} ${JSON.stringify(answer.json).slice(0, 200)}`)
    return false
  }
  return true
}

async function signUp(email: string): Promise<Wallet> {
  const verified = await loginTokens(email)
  if (verified.status !== 200) throw new Error(`login: ${JSON.stringify(verified.json)}`)
  const created = await postFrom(`${url}/api/v2/account/create`, headers, nextLoopback(), '{}', verified.json.data?.accessToken)
  if (created.status !== 200 || !created.json.data) throw new Error(`account/create: ${JSON.stringify(created.json)}`)
  const walletToken = created.json.data.walletToken as string
  const address = await fetch(`${url}/api/v2/wallet/address`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${walletToken}` },
    body: JSON.stringify({ network: 'local-1' }),
  })
  return { walletToken, address: ((await address.json()) as { data: { address: Hex } }).data.address }
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
