import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The cross-engine browser suite: `npx vitest run -c e2e/engines/vitest.config.ts` (ENGINES=firefox,webkit).
// One stack for the run (global-setup.ts); one browser at a time, files one after another.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['e2e/engines/**/*.engine.test.ts'],
    globalSetup: ['e2e/engines/global-setup.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 180_000,
  },
})
