import { expect, test } from 'vitest'
import { widgetFirstLoads } from '../scripts/bundles.ts'

/**
 * 1 KB = 1000 bytes, as for the host budgets (host-sdk/size.test.ts). The core answers the page
 * before React has loaded; the UI runs once the core can answer.
 */
test('the wallet frame core is at most 30 KB gzipped, has no React, and core + UI to the connect home is at most 100 KB', async () => {
  const { core, firstRoute } = await widgetFirstLoads()
  expect(core.gzip).toBeLessThanOrEqual(30 * 1000)
  expect(core.modules.filter((id) => /node_modules\/(react|react-dom|scheduler)\//.test(id))).toEqual([])
  expect(core.modules.filter((id) => id.endsWith('.tsx'))).toEqual([])
  expect(firstRoute.gzip).toBeLessThanOrEqual(100 * 1000)
  // The UI's first load is the connect home: what it does not need is not in it.
  expect(firstRoute.modules.some((id) => id.endsWith('widget/connect/Home.tsx'))).toBe(true)
  expect(firstRoute.files.join(' ')).not.toMatch(/ProfileModal|ConfirmModal|Otp|fees/)
}, 120_000)

test("the UI's first load is one file, prefetched with the page rather than preloaded as a module", async () => {
  const { core, firstRoute, page } = await widgetFirstLoads()
  // React and the first screens: one file, not one found only once another has been parsed.
  const ui = firstRoute.files.filter((file) => !core.files.includes(file))
  expect(ui).toHaveLength(1)
  const links = [...page.matchAll(/<link [^>]*>/g)].map(([tag]) => tag)
  // Its bytes (and its styles) are fetched with the page into the cache, not parsed or run there.
  expect(links).toContainEqual(`<link rel="prefetch" crossorigin="" href="/widget/${ui[0]}">`)
  expect(links.some((tag) => /^<link rel="prefetch" crossorigin="" href="\/widget\/assets\/[\w-]+\.css">$/.test(tag))).toBe(true)
  expect(links.filter((tag) => tag.includes(ui[0]!))).toHaveLength(1)
  // The core's own files are preloaded as modules, as before.
  for (const file of core.files.filter((file) => !/loader-/.test(file)))
    expect(links).toContainEqual(`<link rel="modulepreload" crossorigin="" href="/widget/${file}">`)
}, 120_000)
