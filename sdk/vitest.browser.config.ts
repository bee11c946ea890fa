import { fileURLToPath } from 'node:url'
import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'
// biome-ignore lint/style/noRestrictedImports: a test config, not sdk code: it runs the sdk suite in the same Chromium as e2e/
import { chromiumLaunch } from '../e2e/chromium.ts'

// The sdk suite again, in Chromium: `npx vitest run -c sdk/vitest.browser.config.ts`.
// The recording server runs in Node (globalSetup) and the tests reach it over loopback with CORS,
// exactly like a page calling the provider's services. *.node.test.ts files need Node APIs.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/*.node.test.ts', '**/node_modules/**'],
    globalSetup: ['./global-setup.fixture.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      provider: playwright({
        launchOptions: chromiumLaunch,
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
})
