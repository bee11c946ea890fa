import { type CallOptions, type ClientConfig, type Context, toContext } from '../config.ts'
import { SdkError, setupError } from '../errors.ts'
import { type Method, request } from '../http.ts'
import { rampAuthHeaders } from './auth.ts'
import type {
  Bank,
  FiatCurrency,
  ListQuery,
  PaymentMethod,
  Query,
  Quote,
  QuoteQuery,
  RampCrypto,
  RampList,
  RampOrderParams,
  RampTransaction,
  Recipient,
  RecipientParams,
} from './types.ts'

type Call<P, R> = (params: P, options?: CallOptions) => Promise<R>

export type RampDirectionClient = {
  create: Call<RampOrderParams, RampTransaction>
  quote: Call<QuoteQuery, Quote>
  list: Call<ListQuery | undefined, RampList<RampTransaction>>
  detail: Call<string, RampTransaction>
}

export type RampClient = {
  offramp: RampDirectionClient
  onramp: RampDirectionClient
  recipient: {
    create: Call<RecipientParams, Recipient>
    list: Call<ListQuery | undefined, RampList<Recipient>>
    update: (id: string, params: RecipientParams, options?: CallOptions) => Promise<Recipient>
    delete: Call<string, unknown>
  }
  reference: {
    banks: Call<Query | undefined, RampList<Bank>>
    cryptos: Call<Query | undefined, RampList<RampCrypto>>
    currencies: Call<Query | undefined, RampList<FiatCurrency>>
    paymentMethods: Call<Query | undefined, RampList<PaymentMethod>>
  }
}

/** The ramp service (/v1). Server back ends configure rampable { clientId, privateKey }. */
export function createRampClient(config: ClientConfig | Context = {}): RampClient {
  const ctx = toContext(config)
  const send = <R>(method: Method, path: string, extra: { query?: Query; body?: object }, options: CallOptions = {}) =>
    rampRequest<R>(ctx, method, path, extra, options)
  const id = (value: string) => encodeURIComponent(value)
  const direction = (name: 'offramp' | 'onramp'): RampDirectionClient => ({
    create: (body, options) => send('POST', `/${name}`, { body }, options),
    quote: (query, options) => send('GET', `/${name}/quote`, { query }, options),
    list: (query, options) => send('GET', `/${name}`, query ? { query } : {}, options),
    detail: (key, options) => send('GET', `/${name}/detail/${id(key)}`, {}, options),
  })
  const reference =
    <T>(path: string): Call<Query | undefined, RampList<T>> =>
    (query, options) =>
      send('GET', `/reference/${path}`, query ? { query } : {}, options)
  return {
    offramp: direction('offramp'),
    onramp: direction('onramp'),
    recipient: {
      create: (body, options) => send('POST', '/recipient', { body }, options),
      list: (query, options) => send('GET', '/recipient', query ? { query } : {}, options),
      update: (key, body, options) => send('PATCH', `/recipient/${id(key)}`, { body }, options),
      delete: (key, options) => send('DELETE', `/recipient/${id(key)}`, {}, options),
    },
    reference: {
      banks: reference('banks'),
      cryptos: reference('cryptos'),
      currencies: reference('currencies'),
      paymentMethods: reference('payment-methods'),
    },
  }
}

export async function rampRequest<R>(
  ctx: Context,
  method: Method,
  path: string,
  { query, body }: { query?: Query; body?: object },
  options: CallOptions = {},
): Promise<R> {
  let auth: Record<string, string>
  try {
    auth = await rampAuthHeaders(ctx, method, body)
  } catch (error) {
    // A ramp that is not enabled, or a failed organization lookup, keeps its own error.
    if (error instanceof SdkError) throw error
    throw setupError(error)
  }
  return request<R>({
    fetch: ctx.fetch,
    baseUrl: ctx.baseUrls.ramp,
    method,
    path,
    ...(query ? { query } : {}),
    headers: { ...auth, ...options.headers },
    ...(body !== undefined ? { body: { kind: 'json' as const, value: body } } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  })
}
