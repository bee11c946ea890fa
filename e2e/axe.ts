import { createRequire } from 'node:module'
import type { Frame, Page } from '@playwright/test'

/**
 * axe-core, run the way @axe-core/playwright's AxeBuilder runs it (axe.runPartial in the page and in
 * each frame the context reaches, axe.finishRun over those parts), with the same rules and options,
 * but cheaper for an audit after an audit: axe is loaded once into each document, not again on
 * every call, and the parts are put together in the audited page, not in a new blank page each time.
 * The axe-core is the one AxeBuilder itself loads.
 */
const { source } = createRequire(import.meta.resolve('@axe-core/playwright'))('axe-core') as { source: string }

type Violation = { id: string; impact?: string | null; nodes: { target: unknown[]; failureSummary?: string }[] }
type Context = { include: unknown[]; exclude: unknown[] }
type Axe = {
  runPartial(context: unknown, options: object): Promise<unknown>
  finishRun(parts: unknown[], options: object): Promise<{ violations: Violation[] }>
  configure(spec: object): void
  utils: { getFrameContexts(context: unknown): { frameSelector: unknown; frameContext: Context }[]; shadowSelect(selector: unknown): Element | null }
}
declare global {
  interface Window {
    axe?: Axe
  }
}

async function load(frame: Frame): Promise<void> {
  if (await frame.evaluate(() => typeof window.axe?.runPartial === 'function')) return
  await frame.evaluate(source)
  await frame.evaluate(() => window.axe!.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } }))
}

/** axe.runPartial in `frame` and in each frame `context` reaches from it: the page's part first, then its frames' in order. */
async function partials(frame: Frame, context: Context): Promise<unknown[]> {
  await load(frame)
  const frames = await frame.evaluate((context) => window.axe!.utils.getFrameContexts(context), context)
  const own = frame.evaluate((context) => window.axe!.runPartial(context, {}), context)
  const children: unknown[][] = []
  for (const { frameSelector, frameContext } of frames) {
    const element = (await frame.evaluateHandle((selector) => window.axe!.utils.shadowSelect(selector), frameSelector)).asElement()
    const child = await element?.contentFrame()
    if (!child) throw new Error(`axe: no frame at ${JSON.stringify(frameSelector)}`)
    children.push(await partials(child, frameContext))
  }
  return [await own, ...children.flat(1)]
}

/** The violations axe finds in `page` (the whole page, or only within `include` and the frames there). */
export async function axeViolations(page: Page, include?: string): Promise<Violation[]> {
  const parts = await partials(page.mainFrame(), { include: include ? [include] : [], exclude: [] })
  return (await page.evaluate((parts) => window.axe!.finishRun(parts, {}), parts)).violations
}
