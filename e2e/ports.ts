import { freePort } from '../sandbox/infra/ports.ts'

/**
 * The browser suites' servers, on free ports so that a suite runs beside `npm start` (8787, 5173)
 * and beside another clone's run. Chosen once by the process that loads the config and handed to
 * its workers and to the server it starts through the environment.
 */
export async function choosePorts(): Promise<void> {
  const chosen = new Set<number>()
  for (const name of ['E2E_PROVIDER_PORT', 'E2E_DEMO_PORT', 'E2E_OTHER_DEMO_PORT']) {
    process.env[name] ??= String(await suitePort(chosen))
    chosen.add(Number(process.env[name]))
  }
}

/**
 * A free port below the kernel's ephemeral range (Linux: 32768-60999). The servers bind their ports
 * seconds after they are chosen, once the sandbox has started its chains and opened connections,
 * each of which takes an ephemeral port: a port chosen from that range can be taken by then (a
 * run failed so, EADDRINUSE on a demo port). Below it, only a server that names the port takes it.
 */
async function suitePort(chosen: ReadonlySet<number>): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (!chosen.has(port) && (await freePort(port).catch(() => 0))) return port
  }
  return freePort()
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
