/** A gzipped and a minified size, in bytes. */
export type Size = { raw: number; gzip: number }

/** The wallet frame's sizes in one tree: the first route always; the core where the tree can measure it. */
export type FrameSizes = { firstRoute: Size; core?: Size }

type Measure = () => Promise<Size>

/**
 * From a tree's scripts/bundles.ts (its module, imported in that tree): the first route (the
 * scripts before the connect modal's home shows: core and UI), and the frame core alone when the
 * module exports `widgetCore` (trees before the frame core was split out do not).
 */
export async function frameSizes(bundles: Record<string, unknown>): Promise<FrameSizes> {
  const size = async (measure: Measure): Promise<Size> => {
    const { raw, gzip } = await measure()
    return { raw, gzip }
  }
  const firstRoute = await size(bundles.widgetFirstRoute as Measure)
  return typeof bundles.widgetCore === 'function' ? { firstRoute, core: await size(bundles.widgetCore as Measure) } : { firstRoute }
}
