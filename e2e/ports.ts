import { freePort } from '../sandbox/infra/ports.ts'

/**
 * The browser suites' servers, on free ports so that a suite runs beside `npm start` (8787, 5173)
 * and beside another clone's run. Chosen once by the process that loads the config and handed to
 * its workers and to the server it starts through the environment.
 */
export async function choosePorts(): Promise<void> {
  process.env.E2E_PROVIDER_PORT ??= String(await freePort())
  process.env.E2E_DEMO_PORT ??= String(await freePort())
  process.env.E2E_OTHER_DEMO_PORT ??= String(await freePort())
}

/** The environment `scripts/start.ts --fresh` needs to listen where the suite looks. */
export const stackEnv = (): Record<string, string> => ({
  PORT: process.env.E2E_PROVIDER_PORT!,
  DEMO_PORT: process.env.E2E_DEMO_PORT!,
  OTHER_DEMO_PORT: process.env.E2E_OTHER_DEMO_PORT!,
  ANVIL_PORT: '0',
})

export const providerUrl = (): string => `http://localhost:${process.env.E2E_PROVIDER_PORT}`
export const demoOrigin = (): string => `http://127.0.0.1:${process.env.E2E_DEMO_PORT}`
export const otherDemoOrigin = (): string => `http://127.0.0.1:${process.env.E2E_OTHER_DEMO_PORT}`
