import { type CallOptions, type ClientConfig, type Context, environmentHeader, toContext } from '../config.ts'
import { request } from '../http.ts'
import { signSmartAccountRequest } from '../signing/hmac.ts'
import type {
  BuildSignatureParams,
  CreateSmartAccountParams,
  EstimateResult,
  GasTank,
  GasTankParams,
  ReceiptParams,
  ReceiptResult,
  HashResult,
  NativeBalanceParams,
  SignMessageHashParams,
  SignTypedDataHashParams,
  SignatureResult,
  SmartAccountList,
  SmartBalance,
  SmartBatchBalance,
  SubmitParams,
  SubmitResult,
  TokenBalanceParams,
  TokenBatchBalanceParams,
  TopUpParams,
  UserOpKind,
  UserOpParams,
} from './types.ts'

/**
 * The header that marks a request as coming from the kit's own widget: such requests carry only
 * X-APP-ID and no signature; the service trusts them by origin instead.
 */
export const kitMarker = { header: 'x-wallet-kit-client', value: 'wallet-kit-widget' } as const

type Call<P, R> = (params: P, options?: CallOptions) => Promise<R>

export type UserOpCalls = {
  [kind in UserOpKind]: { hash: Call<UserOpParams[kind], HashResult>; estimate: Call<UserOpParams[kind], EstimateResult> }
}

export type SmartAccountClient = {
  create: Call<CreateSmartAccountParams, SmartAccountList>
  balanceNative: Call<NativeBalanceParams, SmartBalance>
  balanceToken: Call<TokenBalanceParams, SmartBalance>
  balanceTokenBatch: Call<TokenBatchBalanceParams, SmartBatchBalance>
  topUp: Call<TopUpParams, Record<string, unknown>>
  gasTank: Call<GasTankParams, GasTank>
  signMessageHash: Call<SignMessageHashParams, HashResult>
  signTypedDataHash: Call<SignTypedDataHashParams, HashResult>
  buildSignature: Call<BuildSignatureParams, SignatureResult>
  userOp: UserOpCalls & { submit: Call<SubmitParams, SubmitResult>; receipt: Call<ReceiptParams, ReceiptResult> }
}

const userOpKinds: readonly UserOpKind[] = ['deploy', 'sendERC721', 'sendERC1155', 'sendCoin', 'sendToken', 'signTransaction']

/** The service's payload defaults: data '0x', isSponsored false. */
const withDefaults = (kind: UserOpKind, params: object): object =>
  kind === 'sendERC1155' || (kind === 'signTransaction' && !('calls' in params)) ? { data: '0x', ...params } : params

/**
 * The account-abstraction service. With a client secret (server back ends) every request is
 * HMAC-signed; without one (the widget) it carries the kit marker and the app id only.
 */
export function createSmartAccountClient(config: ClientConfig | Context = {}): SmartAccountClient {
  const ctx = toContext(config)
  const post =
    <P extends object, R>(path: string, defaults: (params: P) => object = (p) => p): Call<P, R> =>
    (params, options) =>
      smartAccountRequest<R>(ctx, path, defaults(params), options)

  const userOp = {} as Record<UserOpKind, { hash: unknown; estimate: unknown }>
  for (const kind of userOpKinds) {
    userOp[kind] = {
      hash: post(`/userOp/${kind}/hash`, (p: object) => withDefaults(kind, p)),
      estimate: post(`/userOp/${kind}/estimate`, (p: object) => withDefaults(kind, p)),
    }
  }
  return {
    create: post('/smart-account'),
    balanceNative: post('/smart-account/balance/native'),
    balanceToken: post('/smart-account/balance/token'),
    balanceTokenBatch: post('/smart-account/balance/token/batch'),
    topUp: post('/smart-account/topUp'),
    gasTank: post('/smart-account/gasTank'),
    signMessageHash: post('/smart-account/signMessage/hash'),
    signTypedDataHash: post('/smart-account/signTypedData/hash'),
    buildSignature: post('/smart-account/buildSignature'),
    userOp: {
      ...(userOp as unknown as UserOpCalls),
      submit: post('/userOp/submit', (p: SubmitParams) => ({ isSponsored: false, ...p })),
      receipt: post('/userOp/receipt'),
    },
  }
}

function smartAccountRequest<R>(ctx: Context, path: string, body: object, options: CallOptions = {}): Promise<R> {
  const { appId, clientSecret } = ctx.config
  // The widget acts for the signed-in wallet only: the service learns which from its wallet token.
  const walletToken = ctx.tokens.get().walletToken
  const headers: Record<string, string | undefined> = {
    'x-app-id': appId,
    'x-environment': environmentHeader(ctx.env),
    ...(clientSecret ? {} : { [kitMarker.header]: kitMarker.value, authorization: walletToken ? `Bearer ${walletToken}` : undefined }),
    ...options.headers,
  }
  return request<R>({
    fetch: ctx.fetch,
    baseUrl: ctx.baseUrls.smartAccount,
    method: 'POST',
    path,
    headers,
    body: { kind: 'json', value: body },
    ...(options.signal ? { signal: options.signal } : {}),
    async sign(input): Promise<Record<string, string>> {
      if (input.headers[kitMarker.header] === kitMarker.value || !clientSecret) return {}
      const { timestamp, signature } = await signSmartAccountRequest({
        clientSecret,
        method: input.method,
        path: input.path,
        body: input.body,
      })
      return { 'x-timestamp': timestamp, 'x-signature': signature }
    },
  })
}
