import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serveExamples } from '../examples/serve.ts'
import { defaultRateLimits } from '../sandbox/http/rate-limit.ts'
import { createSandbox } from '../sandbox/server.ts'

/**
 * `npm start`: the provider sandbox on http://localhost:8787 and the demo host page on
 * http://127.0.0.1:5173 (another origin, as a real host would be). `--fresh` uses a throw-away
 * data folder (the browser tests do).
 */
const fresh = process.argv.includes('--fresh')
const dataDir = fresh ? mkdtempSync(join(tmpdir(), 'wallet-kit-')) : process.env.SANDBOX_DATA_DIR
/**
 * The browser suite (`--fresh`) is one machine signing a hundred users up within ten minutes, and all
 * of loopback is one client to the per-IP budgets: it gets ten times the sign-in budgets, so the
 * suite's length is not what it tests. The budgets themselves are tested against the sandbox
 * (sandbox/http/rate-limit*.test.ts, sandbox/services/auth/*.test.ts).
 */
const suiteBudgets = fresh
  ? {
      rateLimits: Object.fromEntries(
        (['codesPerIp', 'verifiesPerIp', 'loginsPerIp'] as const).map((rule) => [rule, { ...defaultRateLimits[rule], max: defaultRateLimits[rule].max * 10 }]),
      ),
    }
  : {}
const sandbox = await createSandbox({ port: Number(process.env.PORT ?? 8787), ...(dataDir ? { dataDir } : {}), ...suiteBudgets })
const demoPort = Number(process.env.DEMO_PORT ?? 5173)
const demo = await serveExamples({ roots: ['dist/examples', 'examples'], host: '127.0.0.1', port: demoPort })
// The same pages on another port: another allowed origin of the same site, which shares the wallet
// frame's storage (and so its session) but must be connected by the user (e2e/site-connect.spec.ts).
const otherPort = Number(process.env.OTHER_DEMO_PORT ?? demoPort + 1)
const other = await serveExamples({ roots: ['dist/examples', 'examples'], host: '127.0.0.1', port: otherPort })

console.log(`Provider sandbox:  ${sandbox.url}`)
console.log(`Demo host page:    http://127.0.0.1:${demoPort}/demo/`)
console.log(`Another site:      http://127.0.0.1:${otherPort}/demo/`)
console.log(`Examples:          http://127.0.0.1:${demoPort}/{element,react,vue,ethers,viem,wagmi,web3}/`)
console.log(`Login codes (dev inbox): ${sandbox.url}/dev/inbox`)
console.log(`Mobile wallet (WalletConnect): ${sandbox.url}/dev/wallet`)

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  demo.close()
  other.close()
  await sandbox.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
