import { Hono, type Context } from 'hono'
import { getAddress, isAddress } from 'viem'
import type { Deps } from '../../context.ts'
import { HttpError, ok } from '../../http/exchange.ts'
import type { App } from '../app-config/apps.ts'
import type { Network } from '../chain/networks.ts'
import { depositAccount, depositWatcher } from './deposits.ts'
import { orderLifetimeMs } from './orders.ts'
import { assetOf, onrampCryptos, quoteOfframp, quoteOnramp } from './pricing.ts'
import {
  countWaitingOfframp,
  deleteRecipient,
  findRampOrder,
  findRecipient,
  insertRampOrder,
  insertRecipient,
  listRecipients,
  updateRecipient,
} from './order-queries.ts'
import { findCrypto, listPage, newId, offrampView, onrampView, paging, readBody, recipientFields, recipientView, text } from './order-io.ts'

// The ramp API's orders and recipients (POST/GET /onramp, /offramp, /recipient and their details), for back ends with the RSA-signed ramp
// client (the publishable key is refused by rampAuth before this). On-ramp: POST /onramp answers
// the hosted page's link; the page pays it out (orders.ts links its order to this one). Off-ramp:
// POST /offramp answers a fresh deposit address on the local chain, whose key is an HKDF subkey of
// the sandbox's master key for the order (deposits.ts); the sandbox watches its balance (on reads,
// and on a timer while deposits are awaited) and, once the full amount is there, pays the
// recipient's simulated bank, to the recipient's details as they were when the order was made.

type RampEnv = { Variables: { app: App | undefined } }

/** How long an off-ramp deposit address waits for its deposit. */
const offrampLifetimeMs = 30 * 60 * 1000
const onrampStatuses = ['pending', 'paid', 'completed', 'expired', 'failed']
const offrampStatuses = ['pending', 'paid_out', 'expired']

/**
 * How many off-ramp orders of one app may wait for their deposit at once. Each is a chain address
 * the sandbox watches every few seconds: without a cap, one back end could make the watcher check
 * millions of addresses.
 */
export const maxWaitingOfframpOrders = 20

export function rampOrderRoutes(deps: Deps) {
  const cryptos = () => onrampCryptos(deps.chains, deps.origin())
  const watcher = depositWatcher(deps)
  // Orders made before a restart are watched again (the timer stops at once when none wait).
  watcher.start()
  // Off-ramp orders are made one at a time, so two concurrent requests cannot both take the last place under the cap.
  let creating: Promise<unknown> = Promise.resolve()
  const oneAtATime = <T>(task: () => Promise<T>): Promise<T> => {
    const run = creating.then(task, task)
    creating = run.catch(() => {})
    return run
  }

  const appOf = (c: Context<RampEnv>): App => {
    const app = c.get('app')
    if (!app) throw new HttpError(401, 'Missing ramp credentials: X-CLIENT-ID with a signature, or x-client-secret')
    return app
  }

  return new Hono<RampEnv>()
    .get('/offramp/quote', (c) => {
      const cryptoId = c.req.query('inputCurrency') ?? ''
      const crypto = cryptos().find((entry) => entry.id === cryptoId)
      return ok(c, quoteOfframp(c.req.query('amount') ?? '', crypto, cryptoId, c.req.query('outputCurrency') ?? '').quote)
    })
    .post('/onramp', async (c) => {
      const app = appOf(c)
      const body = await readBody(c)
      const amount = text(body, 'inputAmount', 'amount')
      const fiat = text(body, 'inputCurrency')
      const crypto = findCrypto(cryptos(), text(body, 'outputCurrency'), body.chain)
      const receiverText = text(body, 'receiverWalletAddress')
      if (!isAddress(receiverText)) throw new HttpError(400, 'receiverWalletAddress must be an EVM address (0x and 40 hex digits, checksummed when mixed case)')
      const { quote, received } = quoteOnramp(amount, fiat, crypto, crypto.id)
      const receiver = getAddress(receiverText)
      const id = newId('onr')
      const network = deps.networks.get(crypto.network)
      await insertRampOrder(deps.store, app, {
        id,
        direction: 'onramp',
        crypto_id: crypto.id,
        chain_id: crypto.chainId,
        asset: assetOf(crypto),
        fiat,
        fiat_amount: amount,
        crypto_amount: received.toString(),
        quote,
        receiver,
        recipient_id: null,
        deposit_address: null,
        // Where a retry after a failed payout starts looking for that payout (payouts.ts).
        start_block: await currentBlock(network),
        expires_at: new Date(Date.now() + orderLifetimeMs).toISOString(),
        payout_to: null,
      })
      return ok(c, onrampView(deps, app, (await findRampOrder(deps.store, app, 'onramp', id))!))
    })
    .get('/onramp', async (c) => {
      const app = appOf(c)
      const { rows, ...page } = await listPage(c, deps, app, 'onramp', onrampStatuses)
      return ok(c, { docs: rows.map((row) => onrampView(deps, app, row)), ...page })
    })
    .get('/onramp/detail/:id', async (c) => {
      const app = appOf(c)
      const row = await findRampOrder(deps.store, app, 'onramp', c.req.param('id'))
      if (!row) throw new HttpError(404, 'Order not found')
      return ok(c, onrampView(deps, app, row))
    })
    .post('/offramp', async (c) => {
      const app = appOf(c)
      const body = await readBody(c)
      const amount = text(body, 'amount', 'inputAmount')
      const crypto = findCrypto(cryptos(), text(body, 'inputCurrency'), body.chain)
      const fiat = text(body, 'outputCurrency')
      const recipientId = text(body, 'recipientId')
      const { quote, deposit } = quoteOfframp(amount, crypto, crypto.id, fiat)
      const recipient = await findRecipient(deps.store, app, recipientId)
      if (!recipient) throw new HttpError(404, 'Recipient not found')
      const id = newId('ofr')
      const startBlock = await currentBlock(deps.networks.get(crypto.network))
      await oneAtATime(async () => {
        if ((await countWaitingOfframp(deps.store, app)) >= maxWaitingOfframpOrders)
          throw new HttpError(429, `At most ${maxWaitingOfframpOrders} off-ramp orders may wait for their deposit at once: fund one, or wait until one expires`)
        await insertRampOrder(deps.store, app, {
          id,
          direction: 'offramp',
          crypto_id: crypto.id,
          chain_id: crypto.chainId,
          asset: assetOf(crypto),
          fiat,
          fiat_amount: quote.total_received_amount,
          crypto_amount: deposit.toString(),
          quote,
          receiver: null,
          recipient_id: recipient.id,
          deposit_address: depositAccount(deps, id).address,
          start_block: startBlock,
          expires_at: new Date(Date.now() + offrampLifetimeMs).toISOString(),
          payout_to: { bank: recipient.bank, accountNumber: recipient.account_number, name: recipient.name },
        })
      })
      watcher.start()
      return ok(c, offrampView((await findRampOrder(deps.store, app, 'offramp', id))!))
    })
    .get('/offramp', async (c) => {
      const app = appOf(c)
      await watcher.check(app)
      const { rows, ...page } = await listPage(c, deps, app, 'offramp', offrampStatuses)
      return ok(c, { docs: rows.map((row) => offrampView(row)), ...page })
    })
    .get('/offramp/detail/:id', async (c) => {
      const app = appOf(c)
      const found = await findRampOrder(deps.store, app, 'offramp', c.req.param('id'))
      if (!found) throw new HttpError(404, 'Order not found')
      await watcher.checkOrder(found)
      const row = found.paid_at === null ? ((await findRampOrder(deps.store, app, 'offramp', found.id)) ?? found) : found
      return ok(c, offrampView(row))
    })
    .post('/recipient', async (c) => {
      const app = appOf(c)
      const fields = recipientFields(await readBody(c), true)
      return ok(c, recipientView(await insertRecipient(deps.store, app, { id: newId('rcp'), ...(fields as Required<typeof fields>) })))
    })
    .get('/recipient', async (c) => {
      const app = appOf(c)
      const { page, limit } = paging(c)
      const { rows, total } = await listRecipients(deps.store, app, page, limit)
      return ok(c, { docs: rows.map(recipientView), page, limit, totalDocs: total, totalPages: Math.ceil(total / limit) })
    })
    .patch('/recipient/:id', async (c) => {
      const app = appOf(c)
      const fields = recipientFields(await readBody(c), false)
      const updated = await updateRecipient(deps.store, app, c.req.param('id'), fields)
      if (!updated) throw new HttpError(404, 'Recipient not found')
      return ok(c, recipientView(updated))
    })
    .delete('/recipient/:id', async (c) => {
      const app = appOf(c)
      if (!(await deleteRecipient(deps.store, app, c.req.param('id')))) throw new HttpError(404, 'Recipient not found')
      return ok(c, { id: c.req.param('id'), deleted: true })
    })
}

/** The chain's block number now, as stored with an order; the chain down is a 502 (nothing is written). */
async function currentBlock(network: Network): Promise<string> {
  try {
    return (await network.client.getBlockNumber()).toString()
  } catch {
    throw new HttpError(502, 'Chain unavailable')
  }
}
