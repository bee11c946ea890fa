import { expect, test } from 'vitest'
import { widgetFirstLoads } from '../scripts/bundles.ts'

/**
 * 1 KB = 1000 bytes, as for the host budgets (host-sdk/size.test.ts). The core answers the page
 * before React has loaded; the UI loads beside it.
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
