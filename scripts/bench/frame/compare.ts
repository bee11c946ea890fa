import { type Browser, chromium } from 'playwright'
import { chromiumLaunch } from '../../../e2e/chromium.ts'
import { measure, type Sample } from './measure.ts'
import { comparisonRows, type Side } from './report.ts'
import { startTarget, type Target, treeSizes } from './target.ts'
import { checkOut, type Tree, workTree } from './worktree.ts'

export type CompareOptions = {
  /** A git ref: the code before the change. */
  baseline: string
  /** A git ref, or '.' for the work tree as it is (built by `npm run bench`). */
  current: string
  runs: number
  log: (line: string) => void
}

/**
 * The wallet frame, before and after, in one run: each side is a tree of its own (built there),
 * served by its own sandbox; the same measuring code (./measure.ts) runs against each, one side
 * then the other, alternating which goes first, so that whatever else loads the machine falls on
 * both alike. Sizes are measured by each tree's own scripts/bundles.ts.
 */
export async function compareFrames(options: CompareOptions) {
  const { log } = options
  const trees: Tree[] = []
  const targets: Target[] = []
  let browser: Browser | undefined
  const cleanUp = async () => {
    await browser?.close().catch(() => {})
    browser = undefined
    for (const target of targets.splice(0)) await target.close().catch(() => {})
    for (const tree of trees.splice(0)) tree.remove()
  }
  // Ctrl-C leaves no worktree, sandbox or data folder behind, and writes no results: once it
  // came, the runs stop where they are (`halted`) until the clean-up ends the process.
  let stopping: Promise<void> | undefined
  const interrupted = () => {
    stopping ??= cleanUp().finally(() => process.exit(130))
  }
  const halted = async () => {
    if (stopping) await new Promise(() => {})
  }
  process.once('SIGINT', interrupted)
  process.once('SIGTERM', interrupted)
  try {
    trees.push(checkOut(options.baseline, log))
    trees.push(options.current === '.' ? workTree() : checkOut(options.current, log))
    const [baselineTree, currentTree] = trees as [Tree, Tree]
    const sides = new Map<Tree, Side>()
    for (const tree of trees) {
      log(`frame sizes of ${tree.label} (${tree.commit})…`)
      const sizes = await treeSizes(tree).catch((error: Error) => {
        log(`${tree.label}: sizes failed: ${error.message}`)
        return undefined
      })
      sides.set(tree, { label: tree.label, commit: tree.commit, samples: [], failures: 0, ...(sizes && { sizes }) })
    }
    for (const tree of trees) {
      await halted()
      targets.push(await startTarget(tree))
    }
    // The signals are ours to handle (Playwright's own handler would end the process before the clean-up).
    const launched = await chromium.launch({ ...chromiumLaunch, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false })
    browser = launched
    // One unmeasured round: the first pages pay for cold disk caches and the sandboxes' first requests.
    for (const target of targets)
      await measure(launched, target).catch((error: Error) => log(`${target.tree.label}: the warm-up run failed: ${error.message.split('\n')[0]}`))
    for (let run = 0; run < options.runs; run++) {
      await halted()
      const order = run % 2 === 0 ? targets : [...targets].reverse()
      const line: string[] = []
      for (const target of order) {
        const side = sides.get(target.tree)!
        try {
          const sample: Sample = await measure(launched, target)
          side.samples.push(sample)
          line.push(`${target.tree.label} ${sample.handshakeMs.toFixed(0)} ms`)
        } catch (error) {
          side.failures++
          line.push(`${target.tree.label} failed (${(error as Error).message.split('\n')[0]})`)
        }
      }
      log(`frame run ${run + 1}/${options.runs}: first answer ${line.join(', ')}`)
    }
    await halted()
    const baseline = sides.get(baselineTree)!
    const current = sides.get(currentTree)!
    return { date: new Date().toISOString(), runs: options.runs, baseline, current, rows: comparisonRows(baseline, current) }
  } finally {
    process.off('SIGINT', interrupted)
    process.off('SIGTERM', interrupted)
    await cleanUp()
  }
}

export type FrameComparison = Awaited<ReturnType<typeof compareFrames>>
