import { defineConfig } from 'vitest/config'

// The pack-and-install test needs the built package (dist/), so npm test runs it after the build.
export default defineConfig({
  test: { root: '.', include: ['scripts/pack-install.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 300_000 },
})
