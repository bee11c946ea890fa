// Started by anvil.test.ts as a separate process, then killed with SIGKILL: anvil must not outlive it.
import { startAnvil } from './anvil.ts'

const anvil = await startAnvil({ chainId: 31998, port: 0 })
console.log(`anvil ${anvil.pid}`)
setInterval(() => {}, 60_000)
