import { expect, test } from 'vitest'
import { widgetFirstRoute } from '../scripts/bundles.ts'

/** 1 KB = 1000 bytes, as for the host budgets (host-sdk/size.test.ts). */
test('the wallet frame loads at most 100 KB gzipped of script before the connect home shows; the rest is lazy', async () => {
  const first = await widgetFirstRoute()
  expect(first.gzip).toBeLessThanOrEqual(100 * 1000)
  // What the connect home does not need is not in it.
  const names = first.files.join(' ')
  expect(names).not.toMatch(/ProfileModal|ConfirmModal|Otp|fees/)
}, 120_000)
