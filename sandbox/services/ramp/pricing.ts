import { parseUnits } from 'viem'
import type { LocalChain } from '../../infra/anvil/local-chains.ts'
import { HttpError } from '../../http/exchange.ts'

// What the sandbox's ramp sells and at which price: fixed demo rates, a 1 % fee and per-fiat limits.
// Shared by the ramp API's quote (/v1/onramp/quote) and the hosted on-ramp page, so the page pays
// out exactly what the buy screen was quoted.

export type Fiat = { id: string; currency: string; symbol: string; name: string }

export const fiats: readonly Fiat[] = [
  { id: 'IDR', currency: 'IDR', symbol: 'Rp', name: 'Indonesian Rupiah' },
  { id: 'USD', currency: 'USD', symbol: '$', name: 'US Dollar' },
  { id: 'EUR', currency: 'EUR', symbol: '€', name: 'Euro' },
]

/** Price of one unit of each coin in each fiat. */
const rates: Record<string, Record<string, number>> = {
  ETH: { IDR: 48_000_000, USD: 3_000, EUR: 2_800 },
  DEMO: { IDR: 16_000, USD: 1, EUR: 0.93 },
}
const coinNames: Record<string, string> = { ETH: 'Ether', DEMO: 'Demo Token' }
const feeRate = 0.01

/**
 * Smallest and largest order per fiat. The maximum keeps one order from draining the faucet's
 * ETH (about 2–4 ETH at the demo rates); the faucet starts with 10,000 ETH per chain.
 */
export const orderLimits: Record<string, { min: number; max: number }> = {
  IDR: { min: 10_000, max: 100_000_000 },
  USD: { min: 1, max: 10_000 },
  EUR: { min: 1, max: 10_000 },
}

export type OnrampCrypto = {
  id: string
  symbol: string
  name: string
  label: string
  logo: string
  network: string
  chainId: number
  currencies: string[]
}

/** Every coin on every local chain, as `GET /v1/reference/cryptos` lists them (`eth-local-1`, `demo-local-2`, …). */
export function onrampCryptos(chains: readonly LocalChain[], origin: string): OnrampCrypto[] {
  return chains.flatMap((chain) =>
    Object.keys(rates).map((symbol) => ({
      id: `${symbol.toLowerCase()}-${chain.network}`,
      symbol,
      name: coinNames[symbol] ?? symbol,
      label: `${symbol} (${chain.name})`,
      logo: `${origin}/icons/chains/${chain.network}.svg`,
      network: chain.network,
      chainId: chain.chainId,
      currencies: fiats.map((fiat) => fiat.id),
    })),
  )
}

export type OnrampQuote = {
  rate_amount: number
  currency: string
  coin: string
  amount_in_crypto: string
  total_fee_amount: string
  total_received_amount_in_crypto: string
}

/** A fiat amount as typed: a plain decimal with at most 2 decimals (no exponent, sign or hex). */
const amountPattern = /^\d{1,15}(?:\.\d{1,2})?$/

const grouped = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 })

/** The amount's problem in words, or undefined when it is a usable number for that fiat (limits only when the fiat is known). */
export function amountProblem(amount: string, fiat: string | undefined, field = 'amount'): string | undefined {
  if (!amountPattern.test(amount)) return `${field} must be a number with at most 2 decimals`
  const value = Number(amount)
  if (value <= 0) return `${field} must be greater than 0`
  const limits = fiat === undefined ? undefined : orderLimits[fiat]
  if (limits && value < limits.min) return `Minimum amount is ${grouped(limits.min)} ${fiat}`
  if (limits && value > limits.max) return `Maximum amount is ${grouped(limits.max)} ${fiat}`
  return undefined
}

export const isFiat = (id: string) => fiats.some((fiat) => fiat.id === id)

/**
 * The quote for `amount` of `fiat` in `crypto`, or a 400 whose message the buy screen shows as is.
 * `received` is what the buyer gets, in the coin's base units (18 decimals for both coins).
 */
/** The faucet asset a crypto of the rate table is paid in. */
export const assetOf = (crypto: Pick<OnrampCrypto, 'symbol'>): 'ETH' | 'DEMO' => (crypto.symbol === 'ETH' ? 'ETH' : 'DEMO')

export function quoteOnramp(amount: string, fiat: string, crypto: OnrampCrypto | undefined, cryptoId: string): { quote: OnrampQuote; received: bigint } {
  const rate = crypto && rates[crypto.symbol]?.[fiat]
  if (!isFiat(fiat)) throw new HttpError(400, `Unknown currency: ${fiat || '(none)'}`)
  if (!crypto || !rate) throw new HttpError(400, `Unknown crypto: ${cryptoId || '(none)'}`)
  const problem = amountProblem(amount, fiat)
  if (problem) throw new HttpError(400, problem)
  const value = Number(amount)
  const fee = value * feeRate
  const quote: OnrampQuote = {
    rate_amount: rate,
    currency: fiat,
    coin: crypto.symbol,
    amount_in_crypto: (value / rate).toFixed(8),
    total_fee_amount: fee.toFixed(2),
    total_received_amount_in_crypto: ((value - fee) / rate).toFixed(8),
  }
  return { quote, received: parseUnits(quote.total_received_amount_in_crypto, 18) }
}

export type OfframpQuote = {
  rate_amount: number
  currency: string
  coin: string
  amount_in_crypto: string
  amount_in_fiat: string
  total_fee_amount: string
  total_received_amount: string
}

/** A coin amount as typed: a plain decimal with at most 18 decimals. */
const cryptoAmountPattern = /^\d{1,15}(?:\.\d{1,18})?$/

/**
 * The off-ramp quote for selling `amount` of `crypto` for `fiat`: same rates, fee and per-fiat
 * limits (on the fiat value) as the on-ramp. `deposit` is the amount in base units.
 */
export function quoteOfframp(amount: string, crypto: OnrampCrypto | undefined, cryptoId: string, fiat: string): { quote: OfframpQuote; deposit: bigint } {
  const rate = crypto && rates[crypto.symbol]?.[fiat]
  if (!crypto) throw new HttpError(400, `Unknown crypto: ${cryptoId || '(none)'}`)
  if (!isFiat(fiat) || !rate) throw new HttpError(400, `Unknown currency: ${fiat || '(none)'}`)
  if (!cryptoAmountPattern.test(amount)) throw new HttpError(400, 'amount must be a number with at most 18 decimals')
  const deposit = parseUnits(amount, 18)
  if (deposit <= 0n) throw new HttpError(400, 'amount must be greater than 0')
  const value = Number(amount) * rate
  const limits = orderLimits[fiat]
  if (limits && value < limits.min) throw new HttpError(400, `Minimum amount is ${grouped(limits.min)} ${fiat}`)
  if (limits && value > limits.max) throw new HttpError(400, `Maximum amount is ${grouped(limits.max)} ${fiat}`)
  const fee = value * feeRate
  const quote: OfframpQuote = {
    rate_amount: rate,
    currency: fiat,
    coin: crypto.symbol,
    amount_in_crypto: amount,
    amount_in_fiat: value.toFixed(2),
    total_fee_amount: fee.toFixed(2),
    total_received_amount: (value - fee).toFixed(2),
  }
  return { quote, deposit }
}
