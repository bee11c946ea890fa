import { Hono, type Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import type { Deps } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { FaucetLowError } from '../../services/chain/faucet.ts'
import { claimOrder, createOrder, isBrowserId, newBrowserId, payableReceiver, recordPayment } from '../../services/ramp/orders.ts'
import { markOnrampFailed } from '../../services/ramp/order-queries.ts'
import { landedPayout } from '../../services/ramp/payouts.ts'
import { assetOf, quoteOnramp } from '../../services/ramp/pricing.ts'
import { page, pageHeaders } from '../page-view.ts'
import {
  claimTitles,
  confirmView,
  faucetLowView,
  forbiddenView,
  invalidOrderView,
  paidView,
  paymentFailedView,
  paymentInProgressView,
  refusedClaimView,
  tooManyView,
} from './views.ts'
import { clientIp, type RateLimits } from '../../http/rate-limit.ts'
import { checkOrderLink } from './order-link.ts'

// The provider's hosted on-ramp page, what the buy screen's Continue opens in a new tab, with
// the order in its query: GET /onramp?clientSecret&receiverWalletAddress&inputAmount&inputCurrency&outputCurrency
// shows the order; its "Pay with sandbox bank" form POSTs the order token back, and the sandbox's
// faucet account pays the quoted coin out on the local chain. No scripts: plain forms.
// The ramp client secret is publishable, so anyone can open and pay orders: pages and payments are
// rate-limited per IP and per receiver, and the faucet keeps a reserve for new wallets (services/chain/faucet.ts).

const browserCookie = 'onramp_browser'

type OnrampRule = Extract<keyof RateLimits, `onramp${string}`>
const limitReasons: Record<OnrampRule, string> = {
  onrampPagesPerIp: 'Too many order pages were opened from your address.',
  onrampPagesPerReceiver: 'Too many orders were opened for this wallet.',
  onrampPaymentsPerIp: 'Too many payments were made from your address.',
  onrampPaymentsPerReceiver: 'Too many payments were made to this wallet.',
}

export function onrampPageRoutes(deps: Deps) {
  const html = (c: Context, status: 200 | 400 | 403 | 409 | 429 | 502 | 503, title: string, body: string, headers: Record<string, string> = {}) =>
    c.html(page({ title, body }), status, { ...pageHeaders(), ...headers })
  /** Counts one hit of `rule` for `key`; once its budget is spent, answers the 429 page (with Retry-After) instead. */
  const overLimit = (c: Context, rule: OnrampRule, key: string) => {
    try {
      deps.limiter.hit(rule, key)
      return undefined
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 429) throw error
      return html(c, 429, 'Too many requests', tooManyView(limitReasons[rule], error.message), error.headers)
    }
  }
  // Ramp API orders whose payout this sandbox is sending now. Past the payout deadline such an order
  // reads 'failed' and its link claims it again, but a payout still on its way (queued behind other
  // faucet jobs, or waiting for its receipt) is not lost: paying again would pay twice. One sandbox
  // process owns its data folder, so a payout in flight anywhere is one in this set.
  const sending = new Set<string>()
  const chainName = (chainId: number) => deps.chains.find((chain) => chain.chainId === chainId)?.name ?? `Chain ${chainId}`

  return new Hono()
    .get('/', async (c) => {
      const limitedIp = overLimit(c, 'onrampPagesPerIp', clientIp(c))
      if (limitedIp) return limitedIp
      const query = (name: string) => c.req.query(name)?.trim() ?? ''
      const link = await checkOrderLink(deps, {
        clientSecret: query('clientSecret'),
        receiver: query('receiverWalletAddress'),
        amount: query('inputAmount'),
        fiat: query('inputCurrency'),
        cryptoId: query('outputCurrency'),
      })
      if (!link.ok) return html(c, 400, 'Invalid order', invalidOrderView(link.problems))
      const { app, crypto, receiver, amount, fiat, cryptoId } = link

      const limitedReceiver = overLimit(c, 'onrampPagesPerReceiver', receiver)
      if (limitedReceiver) return limitedReceiver

      const { quote, received } = quoteOnramp(amount, fiat, crypto, cryptoId)
      const given = getCookie(c, browserCookie)
      const browserId = isBrowserId(given) ? given : newBrowserId()
      const orderId = query('orderId')
      const token = await createOrder(deps.store, app, browserId, {
        receiver,
        chainId: crypto.chainId,
        asset: assetOf(crypto),
        amount: received,
        quote,
        ...(orderId && { orderId, fiatAmount: query('inputAmount') }),
      })
      // Binds the order to this browser: a token lifted from the page is of no use elsewhere, and a
      // cross-site form post arrives without the (strict) cookie.
      setCookie(c, browserCookie, browserId, { path: '/onramp', httpOnly: true, sameSite: 'Strict', maxAge: 24 * 60 * 60 })
      const view = { appName: app.name, amount, fiat, received, crypto, chainName: chainName(crypto.chainId), receiver, quote, token }
      return html(c, 200, `Buy ${crypto.symbol}`, confirmView(view))
    })
    .post('/', async (c) => {
      // The page's own form, or a browser that hides the origin (its no-referrer policy may send "null").
      const origin = c.req.header('origin')
      if (origin && origin !== 'null' && !deps.ownOrigins().includes(origin)) return html(c, 403, 'Forbidden', forbiddenView)
      const limitedIp = overLimit(c, 'onrampPaymentsPerIp', clientIp(c))
      if (limitedIp) return limitedIp
      const form = await readOrderForm(c)
      const token = form.get('order') ?? ''
      const browserId = getCookie(c, browserCookie)
      // Looked up before claiming, so a refused order is not spent and can be paid once the window passes.
      const receiver = await payableReceiver(deps.store, token, browserId)
      const limitedReceiver = receiver && overLimit(c, 'onrampPaymentsPerReceiver', receiver)
      if (limitedReceiver) return limitedReceiver
      const claim = await claimOrder(deps.store, token, browserId)
      if (!claim.ok) return html(c, 400, claimTitles[claim.reason], refusedClaimView(claim.reason))

      const { order } = claim
      const rampOrderId = order.rampOrderId
      if (rampOrderId !== null && sending.has(rampOrderId)) return html(c, 409, 'Payment in progress', paymentInProgressView)
      if (rampOrderId !== null) sending.add(rampOrderId)
      try {
        let hash: `0x${string}`
        try {
          // A retry first looks for the earlier payout on the chain: it may have landed after all.
          hash =
            (order.retry ? await landedPayout(deps, order) : undefined) ??
            (await deps.faucet.pay({ chainId: order.chainId, to: order.receiver, asset: order.asset, amount: order.amount }))
        } catch (error) {
          // A ramp API order is not left 'paid' for ever: it is 'failed' with the reason, and its link pays it again.
          const low = error instanceof FaucetLowError
          if (rampOrderId !== null) await markOnrampFailed(deps.store, rampOrderId, low ? error.message : 'The payout could not be sent')
          if (low) return html(c, 503, 'The sandbox faucet is low on funds', faucetLowView(rampOrderId !== null))
          console.error('[sandbox] on-ramp payout failed:', error)
          return html(c, 502, 'Payment failed', paymentFailedView(rampOrderId !== null))
        }
        await recordPayment(deps.store, token, hash)
        return html(
          c,
          200,
          'Payment received',
          paidView({
            amount: order.amount,
            coin: order.quote.coin,
            receiver: order.receiver,
            chainId: order.chainId,
            chainName: chainName(order.chainId),
            hash,
          }),
        )
      } finally {
        // Only once the payout is recorded (or marked failed) may the link pay the order again.
        if (rampOrderId !== null) sending.delete(rampOrderId)
      }
    })
}

/** The page's form fields; any other body has no order in it (and so gets "Unknown order"). */
async function readOrderForm(c: Context): Promise<URLSearchParams> {
  const type = c.req.header('content-type') ?? ''
  return type.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(await c.req.text()) : new URLSearchParams()
}
