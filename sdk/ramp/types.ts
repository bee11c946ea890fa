/** Wire types of the ramp service (/v1). Only the fields the kit reads are named; the rest stay open. */

export type Query = Record<string, string | number | boolean | undefined>

export type RampCrypto = {
  id: string
  symbol: string
  name: string
  label: string
  logo: string
  currencies: string[]
  [key: string]: unknown
}

export type FiatCurrency = { id: string; currency: string; symbol: string; logo: string; [key: string]: unknown }

export type Quote = {
  rate_amount: number | string
  currency: string
  coin: string
  amount_in_crypto: number | string
  total_fee_amount: number | string
  total_received_amount_in_crypto: number | string
  [key: string]: unknown
}

export type QuoteQuery = Query & {
  amount: number | string
  inputCurrency: string
  outputCurrency: string
  withLimit?: boolean
}

export type ListQuery = Query & { page?: number; limit?: number }

export type RampTransaction = { id: string; status?: string; [key: string]: unknown }
export type RampOrderParams = Record<string, unknown>

export type Recipient = { id: string; [key: string]: unknown }
export type RecipientParams = Record<string, unknown>

export type Bank = { id?: string; code?: string; name: string; [key: string]: unknown }
export type PaymentMethod = { id?: string; name: string; [key: string]: unknown }

/** List answers: the service may page them; the items are what callers use. */
export type RampList<T> = T[] | { docs: T[]; [key: string]: unknown }
