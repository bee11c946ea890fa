import { defineConfig } from '@playwright/test'
import { chromiumLaunch, chromiumStorageBlocked } from './e2e/chromium.ts'

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: 'http://127.0.0.1:5173',
    launchOptions: chromiumLaunch,
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: /storage-blocked\.spec\.ts/ },
    // Playwright's default switches: third-party storage off in the wallet frame.
    { name: 'storage-blocked', use: { browserName: 'chromium', launchOptions: chromiumStorageBlocked }, testMatch: /storage-blocked\.spec\.ts/ },
  ],
  webServer: {
    command: 'npx tsx scripts/start.ts --fresh',
    url: 'http://localhost:8787/health',
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  },
})
