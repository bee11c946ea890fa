import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { createRampClient } from '../../sdk/ramp/client.ts'
import { SdkError, type FiatCurrency, type Quote, type RampCrypto, type RampTypes } from '../../sdk/index.ts'
import { useWidget } from '../context.ts'

/** The on-ramp's figures: fiat defaults to IDR, amount debounced 500 ms, quote refreshed every 5 s. */
export const defaultFiat = 'IDR'
export const amountDebounceMs = 500
export const quotePollMs = 5000

const items = <T>(list: RampTypes.RampList<T>): T[] => (Array.isArray(list) ? list : list.docs)
const httpStatus = (err: unknown) => (err instanceof SdkError ? Number(err.code) : Number.NaN)

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return settled
}

/** The amount as typed, made canonical ('0150000.' → '150000'); null when it is not a positive amount. */
export function canonicalAmount(typed: string): string | null {
  if (!/^\d+(\.\d{0,2})?$/.test(typed)) return null
  const value = Number(typed)
  return value > 0 ? String(value) : null
}

/**
 * The buy screen's state: reference lists, the chosen fiat and crypto, the amount and its quote.
 * `active` is true while a buy screen is shown: the quote is refreshed only then.
 */
export function useOnramp(active: boolean) {
  const { client, config } = useWidget()
  // Built here, on the frame's shared configuration: the ramp client is the buy screen's alone.
  const ramp = useMemo(() => createRampClient(client.context), [client])
  const enabled = !!config.rampableClientSecret
  const [fiat, setFiat] = useState<string | null>(null)
  const [crypto, setCrypto] = useState<string | null>(null)
  const [amount, setAmount] = useState('')

  const currencies = useQuery({
    queryKey: ['ramp', 'currencies'],
    enabled,
    staleTime: 60 * 60 * 1000,
    queryFn: async ({ signal }) => items(await ramp.reference.currencies({ limit: 100 }, { signal })),
  })
  const cryptos = useQuery({
    queryKey: ['ramp', 'cryptos'],
    enabled,
    staleTime: 60 * 60 * 1000,
    queryFn: async ({ signal }) => items(await ramp.reference.cryptos({ transactionType: 'onramp', blockchainType: 'EVM' }, { signal })),
  })

  // Defaults: IDR (or the first fiat), then the first crypto that supports it.
  const fiatList: FiatCurrency[] = currencies.data ?? []
  const cryptoList: RampCrypto[] = cryptos.data ?? []
  const chosenFiat = fiat ?? fiatList.find((f) => f.id === defaultFiat)?.id ?? fiatList[0]?.id ?? null
  const supported = cryptoList.filter((c) => chosenFiat !== null && c.currencies.includes(chosenFiat))
  const chosenCrypto = crypto && supported.some((c) => c.id === crypto) ? crypto : (supported[0]?.id ?? null)

  const settled = canonicalAmount(useDebounced(amount, amountDebounceMs))
  const quoteReady = settled !== null && chosenFiat !== null && chosenCrypto !== null
  // Key and request use the same canonical amount, so a quote always belongs to what is sent.
  const quote = useQuery<Quote, Error>({
    queryKey: ['ramp', 'quote', settled, chosenFiat, chosenCrypto],
    enabled: enabled && active && quoteReady,
    retry: false,
    // Refreshed every 5 s; a 4xx or 5xx answer (status 400 or higher) stops the refresh.
    refetchInterval: (q) => (httpStatus(q.state.error) >= 400 ? false : quotePollMs),
    queryFn: ({ signal }): Promise<Quote> =>
      ramp.onramp.quote({ amount: settled!, inputCurrency: chosenFiat!, outputCurrency: chosenCrypto!, withLimit: false }, { signal }),
  })

  return {
    enabled,
    fiats: fiatList,
    cryptos: supported,
    fiat: fiatList.find((f) => f.id === chosenFiat) ?? null,
    crypto: cryptoList.find((c) => c.id === chosenCrypto) ?? null,
    setFiat,
    setCrypto,
    amount,
    setAmount,
    /** The amount the shown quote is for; Continue waits while typing has not settled on it. */
    quotedAmount: settled !== null && settled === canonicalAmount(amount) ? settled : null,
    quote: quoteReady ? quote : null,
    loading: currencies.isLoading || cryptos.isLoading,
    loadError: currencies.error ?? cryptos.error,
  }
}

export type Onramp = ReturnType<typeof useOnramp>
