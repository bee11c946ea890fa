import { Hono, type Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { formatUnits, getAddress, isAddress } from 'viem'
import type { Deps } from '../../context.ts'
import { HttpError } from '../../http/envelope.ts'
import { FaucetLowError } from '../../services/chain/faucet.ts'
import { claimOrder, createOrder, isBrowserId, newBrowserId, orderLifetimeMs, payableReceiver, recordPayment, type Claim } from '../../services/ramp/orders.ts'
import { amountProblem, fiats, isFiat, onrampCryptos, quoteOnramp } from '../../services/ramp/pricing.ts'
import { escapeHtml, page, pageHeaders } from '../page-view.ts'
import { clientIp, type RateLimits } from '../../http/rate-limit.ts'
import { findAppByRampClientSecret } from '../../services/app-config/queries.ts'

// The provider's hosted on-ramp page, what the buy screen's Continue opens in a new tab (SPEC.md
// section 7): GET /onramp?clientSecret&receiverWalletAddress&inputAmount&inputCurrency&outputCurrency
// shows the order; its "Pay with sandbox bank" form POSTs the order token back, and the sandbox's
// faucet account pays the quoted coin out on the local chain. No scripts: plain forms.
// The ramp client secret is publishable, so anyone can open and pay orders: pages and payments are
// rate-limited per IP and per receiver, and the faucet keeps a reserve for new wallets (faucet.ts).

const browserCookie = 'onramp_browser'

const grouped = (amount: string) => Number(amount).toLocaleString('en-US', { maximumFractionDigits: 2 })

type OnrampRule = Extract<keyof RateLimits, `onramp${string}`>
const limitReasons: Record<OnrampRule, string> = {
  onrampPagesPerIp: 'Too many order pages were opened from your address.',
  onrampPagesPerReceiver: 'Too many orders were opened for this wallet.',
  onrampPaymentsPerIp: 'Too many payments were made from your address.',
  onrampPaymentsPerReceiver: 'Too many payments were made to this wallet.',
}

export function onrampPageRoutes(deps: Deps) {
  const html = (c: Context, status: 200 | 400 | 403 | 429 | 502 | 503, title: string, body: string, headers: Record<string, string> = {}) =>
    c.html(page({ title, body }), status, { ...pageHeaders(), ...headers })
  /** Counts one hit of `rule` for `key`; once its budget is spent, answers the 429 page (with Retry-After) instead. */
  const overLimit = (c: Context, rule: OnrampRule, key: string) => {
    try {
      deps.limiter.hit(rule, key)
      return undefined
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 429) throw error
      return html(c, 429, 'Too many requests', `<h1>Too many requests</h1><p id="limit">${escapeHtml(limitReasons[rule])}</p><p>${escapeHtml(error.message)}.</p>`, error.headers)
    }
  }
  const chainName = (chainId: number) => deps.chains.find((chain) => chain.chainId === chainId)?.name ?? `Chain ${chainId}`

  return new Hono()
    .get('/', async (c) => {
      const limitedIp = overLimit(c, 'onrampPagesPerIp', clientIp(c))
      if (limitedIp) return limitedIp
      const query = (name: string) => c.req.query(name)?.trim() ?? ''
      const clientSecret = query('clientSecret')
      const receiver = query('receiverWalletAddress')
      const amount = query('inputAmount')
      const fiat = query('inputCurrency')
      const cryptoId = query('outputCurrency')
      const crypto = onrampCryptos(deps.chains, deps.origin()).find((entry) => entry.id === cryptoId)

      // Every problem at once, so a wrong link is fixed in one go.
      const problems: string[] = []
      const app = clientSecret ? await findAppByRampClientSecret(deps.store, clientSecret) : undefined
      if (!clientSecret) problems.push('clientSecret is required')
      else if (!app) problems.push('clientSecret is not the ramp client secret of any app')
      if (!isAddress(receiver)) problems.push('receiverWalletAddress must be an EVM address (0x and 40 hex digits)')
      const amountIssue = amountProblem(amount, isFiat(fiat) ? fiat : undefined, 'inputAmount')
      if (amountIssue) problems.push(amountIssue)
      if (!isFiat(fiat)) problems.push(`inputCurrency must be one of ${fiats.map((entry) => entry.id).join(', ')}`)
      if (!crypto) problems.push('outputCurrency must be a crypto id from /v1/reference/cryptos (like eth-local-1)')
      if (!app || !crypto || problems.length) {
        const list = problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join('')
        return html(c, 400, 'Invalid order', `<h1>Invalid order</h1><p>This buy link cannot be used:</p><ul id="problems">${list}</ul>`)
      }

      const limitedReceiver = overLimit(c, 'onrampPagesPerReceiver', getAddress(receiver))
      if (limitedReceiver) return limitedReceiver

      const { quote, received } = quoteOnramp(amount, fiat, crypto, cryptoId)
      const given = getCookie(c, browserCookie)
      const browserId = isBrowserId(given) ? given : newBrowserId()
      const token = await createOrder(deps.store, app, browserId, {
        receiver: getAddress(receiver),
        chainId: crypto.chainId,
        asset: crypto.symbol === 'ETH' ? 'ETH' : 'DEMO',
        amount: received,
        quote,
      })
      // Binds the order to this browser: a token lifted from the page is of no use elsewhere, and a
      // cross-site form post arrives without the (strict) cookie.
      setCookie(c, browserCookie, browserId, { path: '/onramp', httpOnly: true, sameSite: 'Strict', maxAge: 24 * 60 * 60 })
      const minutes = orderLifetimeMs / 60_000
      return html(
        c,
        200,
        `Buy ${crypto.symbol}`,
        `<h1>Confirm your order</h1>
<p class="note">${escapeHtml(app.name)} · sandbox on-ramp</p>
<dl>
<dt>You pay</dt><dd id="pay-amount">${escapeHtml(`${grouped(amount)} ${fiat}`)}</dd>
<dt>You receive</dt><dd id="receive-amount">≈ ${escapeHtml(`${formatUnits(received, 18)} ${crypto.symbol}`)}</dd>
<dt>Network</dt><dd id="network"><img src="/icons/chains/${escapeHtml(crypto.network)}.svg" alt="" width="16" height="16"> ${escapeHtml(`${chainName(crypto.chainId)} (chain ${crypto.chainId})`)}</dd>
<dt>To wallet</dt><dd><code id="receiver">${escapeHtml(getAddress(receiver))}</code></dd>
<dt>Fee (included)</dt><dd id="fee">${escapeHtml(`${grouped(quote.total_fee_amount)} ${fiat}`)}</dd>
<dt>Rate</dt><dd id="rate">${escapeHtml(`1 ${crypto.symbol} = ${quote.rate_amount.toLocaleString('en-US')} ${fiat}`)}</dd>
</dl>
<form method="post" action="/onramp"><input type="hidden" name="order" value="${escapeHtml(token)}">
<button type="submit">Pay with sandbox bank</button></form>
<p class="note">Sandbox: no money moves. The sandbox's faucet account sends the coin on the local chain. This order is valid for ${minutes} minutes.</p>`,
      )
    })
    .post('/', async (c) => {
      // The page's own form, or a browser that hides the origin (its no-referrer policy may send "null").
      const origin = c.req.header('origin')
      if (origin && origin !== 'null' && !deps.ownOrigins().includes(origin))
        return html(c, 403, 'Forbidden', '<h1>Forbidden</h1><p>Orders are paid from the order page only.</p>')
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
      if (!claim.ok) return html(c, 400, claimTitles[claim.reason], `<h1>${claimTitles[claim.reason]}</h1><p>${claimTexts[claim.reason]}</p>`)

      const { order } = claim
      let hash: `0x${string}`
      try {
        hash = await deps.faucet.pay({ chainId: order.chainId, to: order.receiver, asset: order.asset, amount: order.amount })
      } catch (error) {
        if (error instanceof FaucetLowError)
          return html(
            c,
            503,
            'The sandbox faucet is low on funds',
            `<h1>The sandbox faucet is low on funds</h1>
<p>Nothing was sent: this payout would eat into what the faucet keeps for funding new wallets.</p>
<p class="note">Sandbox: a fresh data folder starts the faucet full again.</p>`,
          )
        console.error('[sandbox] on-ramp payout failed:', error)
        return html(c, 502, 'Payment failed', '<h1>Payment failed</h1><p>The payout could not be sent. Start a new purchase from the wallet.</p>')
      }
      await recordPayment(deps.store, token, hash)
      return html(
        c,
        200,
        'Payment received',
        `<h1>Payment received</h1>
<p id="paid">${escapeHtml(`${formatUnits(order.amount, 18)} ${order.quote.coin}`)} sent to <code id="receiver">${escapeHtml(order.receiver)}</code> on ${escapeHtml(`${chainName(order.chainId)} (chain ${order.chainId})`)}.</p>
<p>Transaction <code id="tx-hash">${escapeHtml(hash)}</code></p>
<p class="note">You can close this tab; the wallet shows the new balance.</p>`,
      )
    })
}

const claimTitles: Record<Extract<Claim, { ok: false }>['reason'], string> = {
  used: 'Order already used',
  expired: 'Order expired',
  unknown: 'Unknown order',
}
const claimTexts: Record<Extract<Claim, { ok: false }>['reason'], string> = {
  used: 'This order has already been paid. Start a new purchase from the wallet.',
  expired: 'This order is too old to pay. Start a new purchase from the wallet.',
  unknown: 'This order does not exist or was opened in another browser. Start a new purchase from the wallet.',
}

/** The page's form fields; any other body has no order in it (and so gets "Unknown order"). */
async function readOrderForm(c: Context): Promise<URLSearchParams> {
  const type = c.req.header('content-type') ?? ''
  return type.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(await c.req.text()) : new URLSearchParams()
}
