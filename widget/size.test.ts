import { expect, test } from 'vitest'
import { widgetFirstLoads } from '../scripts/bundles.ts'

/**
 * 1 KB = 1000 bytes, as for the host budgets (host-sdk/size.test.ts). The core answers the page
 * before React has run; the page preloads the UI beside the core.
 */
let built: ReturnType<typeof widgetFirstLoads> | undefined
/** One build for both tests, begun by the first that runs. */
const build = () => (built ??= widgetFirstLoads())

test('the wallet frame core is at most 30 KB gzipped, has no React, and core + UI to the connect home is at most 100 KB', async () => {
  const { core, firstRoute } = await build()
  expect(core.gzip).toBeLessThanOrEqual(30 * 1000)
  expect(core.modules.filter((id) => /node_modules\/(react|react-dom|scheduler)\//.test(id))).toEqual([])
  expect(core.modules.filter((id) => id.endsWith('.tsx'))).toEqual([])
  expect(firstRoute.gzip).toBeLessThanOrEqual(100 * 1000)
  // The UI's first load is the connect home: what it does not need is not in it.
  expect(firstRoute.modules.some((id) => id.endsWith('widget/connect/Home.tsx'))).toBe(true)
  expect(firstRoute.files.join(' ')).not.toMatch(/ProfileModal|ConfirmModal|Otp|fees/)
}, 120_000)

test("the frame's page fetches the whole first route at once: the core's files at the default priority, the UI's and its styles at low priority", async () => {
  const { core, firstRoute, page } = await build()
  const links = [...page.matchAll(/<link ([^>]*)>/g)].map(([, attributes]) =>
    Object.fromEntries([...attributes!.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name!, value!])),
  )
  const entry = page.match(/<script type="module" crossorigin src="\/widget\/([^"]+)"/)?.[1]
  expect(firstRoute.files).toContain(entry)
  const preloaded = (file: string) => links.filter((l) => l.href === `/widget/${file}`)
  for (const file of firstRoute.files.filter((f) => f !== entry)) {
    const ui = !core.files.includes(file)
    // The UI's code is fetched and compiled beside the core's, and run by the core once it has answered (frame.ts).
    expect(preloaded(file), file).toEqual([{ rel: 'modulepreload', crossorigin: '', href: `/widget/${file}`, ...(ui && { fetchpriority: 'low' }) }])
  }
  const styles = links.filter((l) => l.rel === 'preload')
  expect(styles).toEqual([
    { rel: 'preload', as: 'style', crossorigin: '', href: expect.stringMatching(/^\/widget\/assets\/ui-[\w-]+\.css$/), fetchpriority: 'low' },
  ])
}, 120_000)
