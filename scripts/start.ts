import { createServer } from 'node:net'
import { startStack } from './stack.ts'

/**
 * `npm start`: the provider sandbox on http://localhost:8787 and the demo host page on
 * http://127.0.0.1:5173 (another origin, as a real host would be), plus the same pages on the next
 * port (another origin of the same site). PORT, ANVIL_PORT, DEMO_PORT and OTHER_DEMO_PORT choose
 * other ports (0: a free one); a default port that is taken (another clone's `npm start` or test
 * run) gives way to a free one, and the lines below say which. `--fresh` uses a throw-away data
 * folder and the browser suites' budgets (the test runs start it that way).
 */
const fresh = process.argv.includes('--fresh')

/** `fallback` when it can be listened on now, else 0 (a free port). */
function preferred(fallback: number): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(0))
    probe.listen(fallback, '127.0.0.1', () => probe.close(() => resolve(fallback)))
  })
}
/** Default ports that were taken, said aloud: pages and programs that name them reach something else. */
const moved: string[] = []
async function port(name: string, fallback: number): Promise<number> {
  if (process.env[name] !== undefined) return Number(process.env[name])
  const chosen = await preferred(fallback)
  if (chosen === 0) moved.push(`${fallback} (${name})`)
  return chosen
}

const demoPort = await port('DEMO_PORT', 5173)
const stack = await startStack({
  fresh,
  port: await port('PORT', 8787),
  anvilPort: await port('ANVIL_PORT', 8545),
  demoPort,
  otherDemoPort: await port('OTHER_DEMO_PORT', demoPort ? demoPort + 1 : 5174),
})
const url = stack.providerUrl
if (moved.length)
  console.warn(
    `${moved.length > 1 ? 'Ports' : 'Port'} ${moved.join(', ')} ${moved.length > 1 ? 'are' : 'is'} taken by another program, so this sandbox uses free ports. Pages and programs that name http://localhost:8787 or :5173 reach that program, not this sandbox: use the addresses below.`,
  )
console.log(`Provider sandbox:  ${url}`)
console.log(`Demo host page:    ${stack.demoOrigin}/demo/`)
console.log(`Another site:      ${stack.otherDemoOrigin}/demo/`)
console.log(`Examples:          ${stack.demoOrigin}/{element,react,vue,ethers,viem,wagmi,web3}/`)
console.log(`Login codes (dev inbox): ${url}/dev/inbox`)
console.log(`Mobile wallet (WalletConnect): ${url}/dev/wallet`)

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  await stack.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
