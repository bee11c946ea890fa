import { Hono, type MiddlewareHandler } from 'hono'
import type { App } from '../app-config/apps.ts'
import { findAppByRampClientId, findAppByRampClientSecret } from '../app-config/queries.ts'
import type { Deps } from '../../context.ts'
import { HttpError, ok } from '../../http/exchange.ts'
import { fiats, onrampCryptos, orderLimits, quoteOnramp } from './pricing.ts'
import { checkTimestamp, rampStringToSign, rsaMatches } from '../../http/request-signatures.ts'
import { rampOrderRoutes } from './api-orders.ts'
import { sandboxBanks } from './order-io.ts'

// The ramp service (/v1): reference lists and quotes, priced from fixed demo rates (pricing.ts),
// and the orders and recipients of back ends (api-orders.ts). Every request proves its app: an RSA signature
// by the registered ramp client (X-CLIENT-ID, X-TIMESTAMP, X-SIGNATURE), or the app's ramp client
// secret. App config hands that secret to the buy screen in the browser, so it is a publishable
// key: it reads references and quotes, nothing more. The fiat list is public reference data, so it is answered without credentials too.

type RampEnv = { Variables: { app: App | undefined } }

const transactionTypes = ['onramp', 'offramp']

export function rampServiceRoutes(deps: Deps) {
  const cryptos = () => onrampCryptos(deps.chains, deps.origin())
  return new Hono<RampEnv>()
    .use('*', rampAuth(deps))
    .get('/reference/cryptos', (c) => {
      const transactionType = c.req.query('transactionType')
      if (transactionType !== undefined && !transactionTypes.includes(transactionType)) throw new HttpError(400, 'transactionType must be onramp or offramp')
      // Every coin here lives on an EVM chain: another blockchain type simply has none.
      const blockchainType = c.req.query('blockchainType')
      return ok(c, blockchainType === undefined || blockchainType.toUpperCase() === 'EVM' ? cryptos() : [])
    })
    .get('/reference/currencies', (c) => {
      const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 100) || 100, 1), 100)
      return ok(
        c,
        fiats.slice(0, limit).map((fiat) => ({ ...fiat, logo: `${deps.origin()}/icons/fallback.svg` })),
      )
    })
    .get('/reference/banks', (c) => ok(c, sandboxBanks))
    .get('/reference/payment-methods', (c) => ok(c, [{ id: 'bank-transfer', name: 'Bank transfer' }]))
    .get('/onramp/quote', (c) => {
      const withLimit = c.req.query('withLimit')
      if (withLimit !== undefined && withLimit !== 'true' && withLimit !== 'false') throw new HttpError(400, 'withLimit must be true or false')
      const fiat = c.req.query('inputCurrency') ?? ''
      const cryptoId = c.req.query('outputCurrency') ?? ''
      const crypto = cryptos().find((entry) => entry.id === cryptoId || entry.symbol === cryptoId)
      const { quote } = quoteOnramp(c.req.query('amount') ?? '', fiat, crypto, cryptoId)
      const limits = orderLimits[fiat]
      return ok(c, withLimit === 'true' && limits ? { ...quote, min_amount: limits.min, max_amount: limits.max } : quote)
    })
    .route('/', rampOrderRoutes(deps))
}

/** What the publishable key may call: reads of references and quotes. */
const publishablePaths = /^\/v1\/(?:reference\/[a-z-]+|(?:on|off)ramp\/quote)$/
const publicPaths = ['/v1/reference/currencies']

function rampAuth(deps: Deps): MiddlewareHandler<RampEnv> {
  return async (c, next) => {
    const clientId = c.req.header('x-client-id')
    const secret = c.req.header('x-client-secret')
    let app: App | undefined
    if (clientId) {
      const time = checkTimestamp(c.req.header('x-timestamp'))
      app = await findAppByRampClientId(deps.store, clientId)
      const signature = c.req.header('x-signature') ?? ''
      const stringToSign = rampStringToSign(c.req.method, clientId, c.req.header('x-timestamp')!, await c.req.text())
      if (!app?.secrets.rampPublicKey || !rsaMatches(app.secrets.rampPublicKey, stringToSign, signature)) throw new HttpError(401, 'Invalid request signature')
      await deps.replays.reject(`rsa:${clientId}`, stringToSign, time)
    } else if (secret) {
      app = await findAppByRampClientSecret(deps.store, secret)
      if (!app) throw new HttpError(401, 'Invalid client secret')
      if (c.req.method !== 'GET' || !publishablePaths.test(c.req.path))
        throw new HttpError(403, 'The ramp client secret is a publishable key: it reads references and quotes only')
    } else if (!(c.req.method === 'GET' && publicPaths.includes(c.req.path))) {
      throw new HttpError(401, 'Missing ramp credentials: X-CLIENT-ID with a signature, or x-client-secret')
    }
    c.set('app', app)
    return next()
  }
}
