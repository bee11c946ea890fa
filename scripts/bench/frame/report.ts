import type { Sample } from './measure.ts'
import type { FrameSizes } from './sizes.ts'

/** One side's result: what it is, its runs' samples (failed runs left out, counted) and its sizes. */
export type Side = { label: string; commit: string; samples: Sample[]; failures: number; sizes?: FrameSizes }

type Stat = { median: number; p95: number; n: number }
type Unit = 'ms' | '×' | 'KB'
export type Row = { measure: string; unit: Unit; baseline?: Stat; current?: Stat; goal?: number; met?: boolean }

/** Median and p95 of the values that were seen (NaN: not seen that run); undefined if none were. */
export function stat(values: number[]): Stat | undefined {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return undefined
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
  const mid = sorted.length / 2
  const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  const round = (n: number) => Number(n.toFixed(2))
  return { median: round(median), p95: round(at(0.95)), n: sorted.length }
}

type Pick = (sample: Sample) => number
const ratioOf =
  (calls: Pick): Pick =>
  (s) =>
    calls(s) / s.rawRoundTripMs

/** What is compared, with the goal the current code's median has to meet (none: shown for insight). */
const timed: [string, Unit, Pick, number?][] = [
  ['createWalletKit() → first eth_chainId answered (kit.js loaded; frame navigation included)', 'ms', (s) => s.handshakeMs, 150],
  ['kit.js by script tag: page start → first answer', 'ms', (s) => s.scriptTagMs, 250],
  ['kit.open() right after the first answer → frame shown', 'ms', (s) => s.modalVisibleMs, 50],
  ['bridge call ÷ raw cross-origin round trip, steady state (per run)', '×', ratioOf((s) => s.bridgeCallMs), 1.3],
  ['bridge call ÷ raw cross-origin round trip, first second after the first answer (per run)', '×', ratioOf((s) => s.firstSecondCallMs), 1.5],
  ['… one bridge call (eth_chainId), steady state, mean of 200', 'ms', (s) => s.bridgeCallMs],
  ['… one bridge call, first second after the first answer, mean', 'ms', (s) => s.firstSecondCallMs],
  ['… raw MessageChannel round trip, a frame of another site, mean of 200', 'ms', (s) => s.rawRoundTripMs],
  ['… raw MessageChannel round trip, an opaque-origin srcdoc frame', 'ms', (s) => s.rawOpaqueRoundTripMs],
  ['… the floor: a fresh page creates a frame of another site that answers at once → its first answer (no code of ours)', 'ms', (s) => s.floorMs],
  ['… after createWalletKit(): the frame navigates', 'ms', (s) => s.phaseNavigationMs],
  ['… its document arrived', 'ms', (s) => s.phaseDocumentMs],
  ['… its document parsed (none of its code runs before)', 'ms', (s) => s.phaseParsedMs],
  ['… its code asked for the app config', 'ms', (s) => s.phaseAppConfigAskedMs],
  ['… the app config arrived', 'ms', (s) => s.phaseAppConfigMs],
]

const sizeStat = (bytes: number | undefined): Stat | undefined => (bytes === undefined ? undefined : { median: bytes / 1000, p95: bytes / 1000, n: 1 })

/** The comparison's rows; the frame core's only when a side could measure it. */
export function comparisonRows(baseline: Side, current: Side): Row[] {
  const row = (measure: string, unit: Unit, b: Stat | undefined, c: Stat | undefined, goal?: number): Row => ({
    measure,
    unit,
    ...(b && { baseline: b }),
    ...(c && { current: c }),
    ...(goal !== undefined && { goal, met: c !== undefined && c.median <= goal }),
  })
  const rows = timed.map(([measure, unit, pick, goal]) => row(measure, unit, stat(baseline.samples.map(pick)), stat(current.samples.map(pick)), goal))
  if (baseline.sizes?.core || current.sizes?.core)
    rows.push(row('frame core, gzipped', 'KB', sizeStat(baseline.sizes?.core?.gzip), sizeStat(current.sizes?.core?.gzip), 30))
  rows.push(
    row(
      'frame core + UI up to the connect home (first route), gzipped',
      'KB',
      sizeStat(baseline.sizes?.firstRoute.gzip),
      sizeStat(current.sizes?.firstRoute.gzip),
      100,
    ),
  )
  return rows
}

const cell = (unit: Unit, value: Stat | undefined) => {
  if (!value) return '–'
  if (unit === 'KB') return `${value.median.toFixed(1)} KB`
  const digits = unit === '×' || value.median < 10 ? 2 : 0
  const n = (x: number) => x.toFixed(digits)
  return unit === '×' ? `${n(value.median)}× (p95 ${n(value.p95)}×)` : `${n(value.median)} ms (p95 ${n(value.p95)})`
}

/** The Markdown table: medians (p95) of each side, the goal and whether the current side meets it. */
export function comparisonTable(options: { date: string; runs: number; baseline: Side; current: Side }): string {
  const { baseline, current } = options
  const side = (s: Side) => `${s.label} (${s.commit})${s.failures ? `, ${s.failures} failed runs` : ''}`
  return [
    `Frame comparison (${options.date.slice(0, 10)}): ${options.runs} runs of each side in headless Chromium, interleaved, each a fresh browser context; medians (p95). Baseline: ${side(baseline)}; current: ${side(current)}.`,
    '',
    '| measure | baseline | current | goal | met |',
    '|---|---:|---:|---:|---|',
    ...comparisonRows(baseline, current).map(
      (r) =>
        `| ${r.measure} | ${cell(r.unit, r.baseline)} | ${cell(r.unit, r.current)} | ${r.goal === undefined ? '' : `≤ ${r.goal}${r.unit === 'ms' ? ' ms' : r.unit === 'KB' ? ' KB' : '×'}`} | ${r.met === undefined ? '' : r.met ? 'yes' : 'no'} |`,
    ),
    '',
  ].join('\n')
}
