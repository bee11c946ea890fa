import { mkdtempSync } from 'node:fs'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serveExamples } from '../examples/serve.ts'
import { defaultRateLimits } from '../sandbox/http/rate-limit.ts'
import { defaultChannelLimits } from '../sandbox/services/popup/channel.ts'
import { createSandbox, type Sandbox } from '../sandbox/server.ts'

export type StackOptions = {
  /** A throw-away data folder and the test suites' sign-in budgets (see below). */
  fresh?: boolean
  /** Sandbox port; 0 picks a free one. */
  port: number
  /** First chain's anvil port (the second takes the next); 0 picks free ones. */
  anvilPort: number
  /** Demo host pages port; 0 picks a free one. */
  demoPort: number
  /** The same pages on another origin of the same site; 0 picks a free one. */
  otherDemoPort: number
}

export type Stack = {
  readonly sandbox: Sandbox
  /** http://localhost:<port> */
  readonly providerUrl: string
  /** http://127.0.0.1:<demoPort> */
  readonly demoOrigin: string
  readonly otherDemoOrigin: string
  close(): Promise<void>
}

/**
 * The provider sandbox plus the example host pages on two more origins: what `npm start` runs and
 * what every browser suite tests against. The example pages name the provider as
 * http://localhost:8787; on any other port they are served with the real provider URL instead.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const dataDir = options.fresh ? mkdtempSync(join(tmpdir(), 'wallet-kit-')) : process.env.SANDBOX_DATA_DIR
  /**
   * A browser suite (`fresh`) is one machine signing a hundred users up within ten minutes, and all
   * of loopback is one client to the per-IP budgets: it gets ten times the sign-in budgets and the
   * secure window's (its channels and the sessions it hands over), so the suite's length is not what
   * it tests (a suite run twice in a row once used up the 60 channels per ten minutes, and its
   * windows stayed blank). The budgets themselves are tested against the sandbox
   * (sandbox/http/rate-limit*.test.ts, sandbox/services/auth/*.test.ts, sandbox/services/popup/*.test.ts).
   */
  const suiteBudgets = options.fresh
    ? {
        rateLimits: Object.fromEntries(
          (['codesPerIp', 'verifiesPerIp', 'loginsPerIp', 'handoffsPerIp'] as const).map((rule) => [
            rule,
            { ...defaultRateLimits[rule], max: defaultRateLimits[rule].max * 10 },
          ]),
        ),
        popupLimits: { channelsPerClient: defaultChannelLimits.channelsPerClient * 10 },
      }
    : {}
  const sandbox = await createSandbox({ port: options.port, anvilPort: options.anvilPort, ...(dataDir ? { dataDir } : {}), ...suiteBudgets })
  const roots = ['dist/examples', 'examples']
  const providerUrl = sandbox.url
  let demo: Server | undefined
  let other: Server | undefined
  try {
    demo = await serveExamples({ roots, host: '127.0.0.1', port: options.demoPort, providerUrl })
    other = await serveExamples({ roots, host: '127.0.0.1', port: options.otherDemoPort, providerUrl })
  } catch (error) {
    demo?.close()
    await sandbox.close()
    throw error
  }
  const origin = (server: Server) => `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return {
    sandbox,
    providerUrl,
    demoOrigin: origin(demo),
    otherDemoOrigin: origin(other),
    async close() {
      demo?.close()
      other?.close()
      await sandbox.close()
    },
  }
}

/** The ports `npm start` uses unless the environment names others. */
export const defaultPorts = { port: 8787, anvilPort: 8545, demoPort: 5173 } as const
