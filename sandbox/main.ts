// The provider sandbox CLI: `npx tsx sandbox/main.ts`. Env: PORT (8787), ANVIL_PORT (8545; the
// second chain takes the next port), SANDBOX_DATA_DIR, SANDBOX_MASTER_KEY, DATABASE_URL, SANDBOX_LOG=1.
import { createSandbox } from './server.ts'

const port = Number(process.env.PORT ?? 8787)
const anvilPort = Number(process.env.ANVIL_PORT ?? 8545)

try {
  const sandbox = await createSandbox({ port, anvilPort, log: process.env.SANDBOX_LOG === '1' })
  console.log(`Provider sandbox: ${sandbox.url}`)
  console.log(`Dev inbox (login codes): ${sandbox.url}/dev/inbox`)
  console.log(`Sign-in emulators: ${sandbox.url}/oauth/google/authorize, ${sandbox.url}/oauth/apple/authorize, ${sandbox.url}/telegram/login`)
  console.log(`WalletConnect relay: ${sandbox.url.replace(/^http/, 'ws')}/walletconnect`)
  console.log(`Chain ${sandbox.chains.map((chain) => `${chain.chainId}: ${sandbox.url}/rpc/${chain.chainId}`).join(', ')}`)
  console.log(`Data: ${sandbox.dataDir}`)

  let stopping = false
  const stop = async (signal: string) => {
    // A second Ctrl-C means "now": anvil is still killed by its exit hook.
    if (stopping) process.exit(1)
    stopping = true
    console.log(`\n${signal}: stopping the sandbox`)
    await sandbox.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
} catch (error) {
  console.error(`Sandbox failed to start: ${error instanceof Error ? error.message : String(error)}`)
  if (error instanceof Error && error.cause) console.error(error.cause)
  process.exit(1)
}
