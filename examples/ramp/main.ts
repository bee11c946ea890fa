// A back end of app `demo` using the ramp service with its RSA-signed ramp client, against the
// running sandbox (`npm start`). From the repository root:
//
//   npx tsx examples/ramp/main.ts
//
// The sandbox generated this client's private key into its data folder on its first start
// (ramp-client-demo.pem) and registered the public key for `demo-ramp-client`; it writes where it
// listens beside it (sandbox-url), and the requests go there, not to whatever holds port 8787.
// SANDBOX_DATA_DIR names another data folder than .data/sandbox, WALLET_KIT_URL another sandbox.
// It prints a quote, an on-ramp order (open its paymentUrl to pay it), a bank recipient and an
// off-ramp order (send 0.01 ETH on Local Chain 1 to its depositAddress to have it paid out).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient } from 'wallet-kit/sdk'

const dataDir = process.env.SANDBOX_DATA_DIR ?? fileURLToPath(new URL('../../.data/sandbox', import.meta.url))
const providerUrl = process.env.WALLET_KIT_URL ?? readFileSync(join(dataDir, 'sandbox-url'), 'utf8').trim()

const { ramp } = createClient({
  appId: 'demo',
  rampable: { clientId: 'demo-ramp-client', privateKey: readFileSync(join(dataDir, 'ramp-client-demo.pem'), 'utf8') },
  baseUrls: { ramp: `${providerUrl}/v1` },
})

const receiverWalletAddress = process.argv[2] ?? '0x000000000000000000000000000000000000dEaD'
const quote = await ramp.onramp.quote({ amount: 150000, inputCurrency: 'IDR', outputCurrency: 'eth-local-1' })
const onramp = await ramp.onramp.create({ inputAmount: 150000, inputCurrency: 'IDR', outputCurrency: 'eth-local-1', receiverWalletAddress })
const recipient = await ramp.recipient.create({ bank: 'demo-bank', accountNumber: '1234567890', name: 'Ada Lovelace' })
const offramp = await ramp.offramp.create({ amount: '0.01', inputCurrency: 'eth-local-1', outputCurrency: 'IDR', recipientId: recipient.id })
const orders = await ramp.onramp.list({ limit: 5 })

console.log(JSON.stringify({ quote, onramp, recipient, offramp, orders }, null, 2))
