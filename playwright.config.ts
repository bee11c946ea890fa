import { defineConfig } from '@playwright/test'
import { chromiumLaunch, chromiumStorageBlocked } from './e2e/chromium.ts'
import { choosePorts, demoOrigin, providerUrl, stackEnv } from './e2e/ports.ts'

await choosePorts()

export default defineConfig({
  testDir: 'e2e',
  // Playwright's specs only: e2e/engines/ holds the cross-engine suite's Vitest files (*.engine.test.ts).
  testMatch: /\.spec\.ts$/,
  outputDir: 'test-results',
  fullyParallel: false,
  // Two browsers at once (the machine has two cores). The tests share the one sandbox and chains but
  // no state: each signs up its own e-mail, funds and spends its own wallets, pins its own kit and chain.
  workers: 2,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: demoOrigin(),
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
    env: stackEnv(),
    url: `${providerUrl()}/health`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  },
})
