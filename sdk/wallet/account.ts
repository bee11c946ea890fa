import { type CallOptions, type ClientConfig, type Context, toContext } from '../config.ts'
import { normalizeError } from '../errors.ts'
import { refreshTokens, walletRequest } from '../http.ts'
import type { OrganizationInfo, TokenPair, WalletCreationResult } from './types.ts'

export type CreateWalletParams = {
  /** The accessToken a login answered with when isWalletCreated was false. */
  accessToken: string
  expireDate?: string
  rampable?: boolean
}

export type RecoverParams = {
  data: FormData | Record<string, string>
  /** Bearer for the call; defaults to the held wallet token. */
  accessToken?: string
}

export type RampableTokenResult = { rampableAccessToken: string }

export type AccountClient = {
  create(params: CreateWalletParams, options?: CallOptions): Promise<WalletCreationResult>
  recover(params: RecoverParams, options?: CallOptions): Promise<Partial<WalletCreationResult> & Record<string, unknown>>
  createRampable(params?: { walletToken?: string }, options?: CallOptions): Promise<RampableTokenResult>
  organization(options?: CallOptions): Promise<OrganizationInfo>
  /** The refresh itself is shared with concurrent callers; a signal only stops this caller's wait. */
  refresh(params: { refreshToken: string }, options?: CallOptions): Promise<TokenPair>
  refreshRampable(params: { rampableAccessToken: string; walletToken?: string }, options?: CallOptions): Promise<RampableTokenResult>
}

export function createAccountClient(config: ClientConfig | Context = {}): AccountClient {
  const ctx = toContext(config)
  return {
    async create({ accessToken, ...body }, options) {
      const result = await walletRequest<WalletCreationResult>(
        ctx,
        { path: '/account/create', body: { kind: 'json', value: body }, bearer: accessToken },
        options,
      )
      ctx.tokens.set({
        walletToken: result.walletToken,
        refreshToken: result.refreshToken,
        address: evmAddress(result.address),
      })
      return result
    },
    recover({ data, accessToken }, options) {
      const body = data instanceof FormData ? { kind: 'formData' as const, value: data } : { kind: 'form' as const, value: data }
      return walletRequest(ctx, { path: '/account/recover', body, bearer: accessToken ?? ctx.tokens.get().walletToken }, options)
    },
    createRampable: (params = {}, options) => createRampableAccount(ctx, params.walletToken, options),
    organization: (options) => fetchOrganization(ctx, options),
    refresh: ({ refreshToken }, options = {}) => untilAborted(refreshTokens(ctx, refreshToken), options.signal),
    async refreshRampable({ walletToken, ...body }, options) {
      const result = await walletRequest<RampableTokenResult>(
        ctx,
        { path: '/wallet/refresh-rampable', body: { kind: 'json', value: body }, bearer: walletToken ?? ctx.tokens.get().walletToken },
        options,
      )
      if (result?.rampableAccessToken) ctx.tokens.set({ rampAccessToken: result.rampableAccessToken })
      return result
    },
  }
}

/** POST account/rampable/create → the ramp access token, kept in the holder. */
export async function createRampableAccount(ctx: Context, walletToken: string | undefined, options?: CallOptions): Promise<RampableTokenResult> {
  const result = await walletRequest<RampableTokenResult>(
    ctx,
    { path: '/account/rampable/create', bearer: walletToken ?? ctx.tokens.get().walletToken },
    options,
  )
  if (result?.rampableAccessToken) ctx.tokens.set({ rampAccessToken: result.rampableAccessToken })
  return result
}

/** GET /organization: whether ramp is enabled for the app, and its ramp client secret. */
export function fetchOrganization(ctx: Context, options?: CallOptions): Promise<OrganizationInfo> {
  return walletRequest<OrganizationInfo>(ctx, { method: 'GET', path: '/organization', bearer: ctx.tokens.get().walletToken }, options)
}

/** The evm entry of a login's address list (the one the kit uses); an address of another network is never the session's. */
export function evmAddress(list: readonly { network: string; address: string }[] | undefined): string | undefined {
  return list?.find((entry) => entry.network === 'evm')?.address
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(normalizeError(signal.reason))
    if (signal.aborted) return abort()
    signal.addEventListener('abort', abort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}
