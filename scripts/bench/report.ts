import type { FrameComparison } from './frame/compare.ts'
import { comparisonTable } from './frame/report.ts'
import type { SizeRow } from './sizes.ts'

type Phase = { requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number; cpuMsPerRequest: number; seconds: number }
type Stat = { median: number; p95: number }

/** bench/results.json: each part as its last run wrote it (`--only frame` replaces the frame comparison alone). */
export type Results = {
  date: string
  machine: string
  sizes?: (SizeRow | { bundle: string; error: string })[]
  frame?: FrameComparison
  browser?: { runs: number; postLoginDelayMs?: number; confirmCloseDelayMs?: number; codeToConnectedMs?: Stat; confirmToSignatureMs?: Stat }
  sandbox?: Record<string, number> & {
    signMessage: Phase
    sendTransaction: Phase
    login: Phase
    mixed: Phase & { rssAtStartMiB: number; rssAtEndMiB: number; rssGrowthMiB: number; peakRssMiB: number; kinds: Record<string, Phase> }
  }
  smartAccount?: Record<string, number>
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`
const ms = (s: Stat | undefined) => (s ? `${s.median} ms (p95 ${s.p95} ms)` : '–')
const phaseRow = (name: string, phase: Phase) =>
  `| ${name} | ${phase.requestsPerSecond} | ${phase.p50Ms} / ${phase.p99Ms} ms | ${phase.errors} | ${phase.cpuMsPerRequest} ms |`

function sizeTable(sizes: NonNullable<Results['sizes']>): string[] {
  const kitGzip = sizes.find((row) => row.bundle.startsWith('kit.js ('))
  const providerGzip = sizes.find((row) => row.bundle.startsWith('wallet-kit (provider only)'))
  const ratio = (ours: (typeof sizes)[number] | undefined, peer: (typeof sizes)[number]) =>
    ours && 'gzip' in ours && 'gzip' in peer ? `${(ours.gzip / peer.gzip).toFixed(2)}×` : ''
  return [
    '| bundle | minified | gzipped | kit.js ÷ this | provider-only ÷ this |',
    '|---|---:|---:|---:|---:|',
    ...sizes.map((row) =>
      'error' in row
        ? `| ${row.bundle} | failed | ${row.error} | | |`
        : `| ${row.bundle} | ${kb(row.raw)} | ${kb(row.gzip)} | ${row.peer ? ratio(kitGzip, row) : ''} | ${row.peer ? ratio(providerGzip, row) : ''} |`,
    ),
    '',
  ]
}

function sandboxTables(sandbox: NonNullable<Results['sandbox']>): string[] {
  return [
    `| sandbox, ${sandbox.clients} concurrent clients, ${sandbox.signMessage.seconds} s each | requests/s | p50 / p99 | errors | sandbox CPU per request |`,
    '|---|---:|---:|---:|---:|',
    phaseRow('sign-message', sandbox.signMessage),
    phaseRow('send-transaction (mined on the local chain)', sandbox.sendTransaction),
    phaseRow('e-mail login (code requested, read, verified)', sandbox.login),
    `| peak memory (start / after the three) | ${sandbox.sandboxPeakRssAtStartMiB} / ${sandbox.sandboxPeakRssMiB} MiB | | | |`,
    '',
    `| sandbox, mixed load for ${sandbox.mixed.seconds} s (of every 20 calls: 12 sign-message, 3 send-transaction, 2 logins, 3 balance reads) | |`,
    '|---|---:|',
    `| requests/s, p50 / p99, errors | ${sandbox.mixed.requestsPerSecond}, ${sandbox.mixed.p50Ms} / ${sandbox.mixed.p99Ms} ms, ${sandbox.mixed.errors} |`,
    ...Object.entries(sandbox.mixed.kinds ?? {}).map(
      ([kind, phase]) => `| … ${kind}: requests/s, p50 / p99, errors | ${phase.requestsPerSecond}, ${phase.p50Ms} / ${phase.p99Ms} ms, ${phase.errors} |`,
    ),
    `| memory at the start / at the end (growth) | ${sandbox.mixed.rssAtStartMiB} / ${sandbox.mixed.rssAtEndMiB} MiB (${sandbox.mixed.rssGrowthMiB >= 0 ? '+' : ''}${sandbox.mixed.rssGrowthMiB} MiB) |`,
    `| peak memory during the mixed load | ${sandbox.mixed.peakRssMiB} MiB |`,
    '',
  ]
}

/** bench/results.md: the parts there are, each under its own heading; the frame's goals in its own table. */
export function renderResults(results: Results): string {
  const { sizes, frame, browser, sandbox, smartAccount } = results
  const goals: [string, boolean][] = [
    ...(browser?.codeToConnectedMs ? [['code → connected median ≤ 500 ms', browser.codeToConnectedMs.median <= 500] as [string, boolean]] : []),
    ...(sandbox
      ? ([
          ['sign-message ≥ 1,500 requests/s', (sandbox.requestsPerSecond ?? 0) >= 1500],
          ['sign-message p99 ≤ 100 ms', (sandbox.p99Ms ?? Number.POSITIVE_INFINITY) <= 100],
        ] as [string, boolean][])
      : []),
  ]
  return [
    `# Benchmark (${results.date.slice(0, 10)}, ${results.machine})`,
    '',
    ...(sizes ? sizeTable(sizes) : []),
    ...(frame ? [comparisonTable(frame)] : []),
    ...(browser
      ? [
          `| in headless Chromium, ${browser.runs} runs, two origins | median (p95) |`,
          '|---|---:|',
          `| e-mail code typed → accountsChanged at the host, existing user${browser.postLoginDelayMs ? ` (includes the ${browser.postLoginDelayMs} ms post-login delay)` : ''} | ${ms(browser.codeToConnectedMs)} |`,
          `| Confirm click → personal_sign signature at the host${browser.confirmCloseDelayMs ? ` (includes the ${browser.confirmCloseDelayMs} ms confirm close delay)` : ''} | ${ms(browser.confirmToSignatureMs)} |`,
          '',
        ]
      : []),
    ...(sandbox ? sandboxTables(sandbox) : []),
    ...(smartAccount
      ? [
          `| sponsored smart-account operations, local chain (bundle delay ${smartAccount.bundleDelayMs} ms) | |`,
          '|---|---:|',
          `| deploy: gas used / Confirm → receipt | ${smartAccount.deployGas} / ${smartAccount.deployConfirmToReceiptMs} ms |`,
          `| DEMO send: gas used / Confirm → receipt, median (max) of ${smartAccount.runs} | ${smartAccount.sendGas} / ${smartAccount.sendConfirmToReceiptMedianMs} ms (${smartAccount.sendConfirmToReceiptMaxMs} ms) |`,
          '',
        ]
      : []),
    ...(goals.length ? ['| goal | met |', '|---|---|', ...goals.map(([goal, met]) => `| ${goal} | ${met ? 'yes' : 'no'} |`), ''] : []),
  ].join('\n')
}
