import { Hono, type MiddlewareHandler } from 'hono'
import { findApp, type App } from '../apps.ts'
import type { Deps, SandboxEnv } from '../context.ts'
import { HttpError, ok } from '../envelope.ts'
import { checkTimestamp, rampStringToSign, rejectReplay, rsaMatches } from '../signatures.ts'

// The ramp service (/v1) as far as the kit's buy screen reads it: reference lists and quotes,
// priced from fixed demo rates. Every request proves its app: an RSA signature by the registered
// ramp client (X-CLIENT-ID, X-TIMESTAMP, X-SIGNATURE), or the app's ramp client secret.

const fiats = [
  { id: 'IDR', currency: 'IDR', symbol: 'Rp', name: 'Indonesian Rupiah' },
  { id: 'USD', currency: 'USD', symbol: '$', name: 'US Dollar' },
  { id: 'EUR', currency: 'EUR', symbol: '€', name: 'Euro' },
]
/** Price of one unit of each coin in each fiat. */
const rates: Record<string, Record<string, number>> = {
  ETH: { IDR: 48_000_000, USD: 3_000, EUR: 2_800 },
  DEMO: { IDR: 16_000, USD: 1, EUR: 0.93 },
}
const feeRate = 0.01

type RampEnv = SandboxEnv

export function rampServiceRoutes(deps: Deps) {
  const cryptos = () =>
    deps.chains.flatMap((chain) =>
      Object.keys(rates).map((symbol) => ({
        id: `${symbol.toLowerCase()}-${chain.network}`,
        symbol,
        name: symbol === 'ETH' ? 'Ether' : 'Demo Token',
        label: `${symbol} (${chain.name})`,
        logo: `${deps.origin()}/icons/chains/${chain.network}.svg`,
        network: chain.network,
        chainId: chain.chainId,
        currencies: fiats.map((fiat) => fiat.id),
      })),
    )
  return new Hono<RampEnv>()
    .use('*', rampAuth(deps))
    .get('/reference/cryptos', (c) => ok(c, cryptos()))
    .get('/reference/currencies', (c) => {
      const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 100) || 100, 1), 100)
      return ok(c, fiats.slice(0, limit).map((fiat) => ({ ...fiat, logo: `${deps.origin()}/icons/fallback.svg` })))
    })
    .get('/reference/banks', (c) => ok(c, [{ id: 'demo-bank', code: 'DEMO', name: 'Sandbox Bank' }]))
    .get('/reference/payment-methods', (c) => ok(c, [{ id: 'bank-transfer', name: 'Bank transfer' }]))
    .get('/onramp/quote', (c) => {
      const amount = Number(c.req.query('amount'))
      const fiat = c.req.query('inputCurrency') ?? ''
      const coinId = c.req.query('outputCurrency') ?? ''
      const coin = cryptos().find((entry) => entry.id === coinId || entry.symbol === coinId)
      if (!Number.isFinite(amount) || amount <= 0) throw new HttpError(400, 'amount must be greater than 0')
      const rate = coin && rates[coin.symbol]?.[fiat]
      if (!coin || !rate) throw new HttpError(400, `No quote for ${fiat} to ${coinId}`)
      const fee = amount * feeRate
      const crypto = amount / rate
      return ok(c, {
        rate_amount: rate,
        currency: fiat,
        coin: coin.symbol,
        amount_in_crypto: crypto.toFixed(8),
        total_fee_amount: fee.toFixed(2),
        total_received_amount_in_crypto: ((amount - fee) / rate).toFixed(8),
      })
    })
}

function rampAuth(deps: Deps): MiddlewareHandler<RampEnv> {
  return async (c, next) => {
    const clientId = c.req.header('x-client-id')
    const secret = c.req.header('x-client-secret')
    let app: App | undefined
    if (clientId) {
      const time = checkTimestamp(c.req.header('x-timestamp'))
      app = await appWhere(deps, "secrets ->> 'rampClientId' = $1", clientId)
      const signature = c.req.header('x-signature') ?? ''
      const stringToSign = rampStringToSign(c.req.method, clientId, c.req.header('x-timestamp')!, await c.req.text())
      if (!app?.secrets.rampPublicKey || !rsaMatches(app.secrets.rampPublicKey, stringToSign, signature))
        throw new HttpError(401, 'Invalid request signature')
      await rejectReplay(deps.store, signature, time)
    } else if (secret) {
      app = await appWhere(deps, "settings ->> 'rampableClientSecret' = $1", secret)
      if (!app) throw new HttpError(401, 'Invalid client secret')
    } else {
      throw new HttpError(401, 'Missing ramp credentials: X-CLIENT-ID with a signature, or x-client-secret')
    }
    c.set('app', app)
    return next()
  }
}

async function appWhere(deps: Deps, condition: string, value: string): Promise<App | undefined> {
  const { rows } = await deps.store.query<{ app_id: string; environment: 'production' | 'development' }>(
    `SELECT app_id, environment FROM apps WHERE ${condition} ORDER BY environment LIMIT 1`,
    [value],
  )
  const row = rows[0]
  if (!row) return undefined
  return findApp(deps.store, row.app_id, row.environment)
}
