import { describe, expect, it } from 'vitest'
import type { Sample } from './measure.ts'
import { comparisonRows, comparisonTable, type Side, stat } from './report.ts'
import { frameSizes } from './sizes.ts'

// Fixed figures, not timings: these test how the comparison is computed and shown, never how fast anything is.
const sample = (overrides: Partial<Sample>): Sample => ({
  handshakeMs: 100,
  scriptTagMs: 200,
  modalVisibleMs: 20,
  firstSecondCallMs: 1,
  bridgeCallMs: 1,
  rawRoundTripMs: 1,
  rawOpaqueRoundTripMs: 1,
  phaseNavigationMs: 5,
  phaseDocumentMs: 50,
  phaseParsedMs: 60,
  floorMs: 40,
  phaseAppConfigAskedMs: Number.NaN,
  phaseAppConfigMs: Number.NaN,
  ...overrides,
})
const side = (samples: Partial<Sample>[], sizes?: Side['sizes']): Side => ({
  label: 'x',
  commit: 'abc1234',
  samples: samples.map(sample),
  failures: 0,
  ...(sizes && { sizes }),
})
const find = (rows: ReturnType<typeof comparisonRows>, start: string) => rows.find((row) => row.measure.startsWith(start))

describe('the frame comparison', () => {
  it('takes the median of what was seen, ignoring runs that did not see it', () => {
    expect(stat([3, Number.NaN, 1, 2])).toEqual({ median: 2, p95: 3, n: 3 })
    expect(stat([4, 1, 3, 2])?.median).toBe(2.5)
    expect(stat([Number.NaN])).toBeUndefined()
  })

  it('judges the current side against each goal, whatever the baseline did', () => {
    const baseline = side([{ handshakeMs: 50 }, { handshakeMs: 60 }, { handshakeMs: 70 }])
    const current = side([{ handshakeMs: 140 }, { handshakeMs: 150 }, { handshakeMs: 900 }])
    expect(find(comparisonRows(baseline, current), 'createWalletKit()')).toMatchObject({
      baseline: { median: 60 },
      current: { median: 150 },
      goal: 150,
      met: true,
    })
    const slower = side([{ handshakeMs: 151 }])
    expect(find(comparisonRows(baseline, slower), 'createWalletKit()')).toMatchObject({ met: false })
  })

  it('divides each run’s bridge call by the same run’s raw round trip, steady and in the first second', () => {
    // Per run: 2/1, 3/2, 8/2 → median 2; a ratio of medians would give 3/2.
    const runs = [
      { bridgeCallMs: 2, rawRoundTripMs: 1, firstSecondCallMs: 1 },
      { bridgeCallMs: 3, rawRoundTripMs: 2, firstSecondCallMs: 3 },
      { bridgeCallMs: 8, rawRoundTripMs: 2, firstSecondCallMs: 2 },
    ]
    const rows = comparisonRows(side(runs), side(runs))
    expect(find(rows, 'bridge call ÷ raw cross-origin round trip, steady')).toMatchObject({ current: { median: 2 }, goal: 1.3, met: false })
    expect(find(rows, 'bridge call ÷ raw cross-origin round trip, first second')).toMatchObject({ current: { median: 1 }, goal: 1.5, met: true })
  })

  it('shows the frame core only when a side measured it, and a side without it as not measured', async () => {
    const firstRoute = { raw: 300_000, gzip: 99_500 }
    const without = comparisonRows(side([{}], { firstRoute }), side([{}], { firstRoute }))
    expect(find(without, 'frame core,')).toBeUndefined()
    expect(find(without, 'frame core + UI')).toMatchObject({ current: { median: 99.5 }, goal: 100, met: true })
    const baseline = side([{}], { firstRoute })
    const current = side([{}], { firstRoute, core: { raw: 80_000, gzip: 31_000 } })
    expect(find(comparisonRows(baseline, current), 'frame core,')).toMatchObject({ current: { median: 31 }, goal: 30, met: false })
    const table = comparisonTable({ date: '2026-11-26T00:00:00Z', runs: 1, baseline, current })
    expect(table).toContain('| frame core, gzipped | – | 31.0 KB | ≤ 30 KB | no |')
  })

  it('measures the core only where the tree’s bundles module exports widgetCore', async () => {
    const widgetFirstRoute = async () => ({ files: ['a.js'], raw: 10, gzip: 5 })
    expect(await frameSizes({ widgetFirstRoute })).toEqual({ firstRoute: { raw: 10, gzip: 5 } })
    const widgetCore = async () => ({ raw: 4, gzip: 2 })
    expect(await frameSizes({ widgetFirstRoute, widgetCore })).toEqual({ firstRoute: { raw: 10, gzip: 5 }, core: { raw: 4, gzip: 2 } })
  })
})
