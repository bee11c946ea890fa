import { keccak256, stringToHex, type Hex } from 'viem'
import type { CallOptions, Context } from '../config.ts'
import { SdkError } from '../errors.ts'
import { type Method, refreshTokens, walletRequest } from '../http.ts'

// The user's own step-up threshold per chain ("ask a second factor before sending more than X"), as
// the frame's Security page and the wallet service both see it.

/**
 * The request hash a `loosen-step-up` proof is bound to: the chain and the new threshold in the
 * chain's base unit (null: removed), so a proof earned to raise it to one value cannot raise it to
 * another or remove it. The frame asks the code for it; the service recomputes it from the request.
 */
export const thresholdChangeHash = (chainId: number, above: bigint | null): Hex =>
  keccak256(stringToHex(`loosen-step-up:${chainId}:${above === null ? 'none' : above.toString()}`))

/** One chain's thresholds, as decimal strings in its native unit (null: none); the lower of app and user applies. */
export type StepUpThreshold = {
  chainId: number
  network: string
  symbol: string
  decimals: number
  app: string | null
  user: string | null
  effective: string | null
}

type Thresholds = { thresholds: StepUpThreshold[] }

/** A call with the held wallet token; a 401 refreshes the pair once and repeats it. */
async function held(ctx: Context, method: Method, path: string, body: object | undefined, options?: CallOptions): Promise<Thresholds> {
  const send = (bearer: string | undefined) =>
    walletRequest<Thresholds>(
      ctx,
      { method, path: `/wallet/step-up-thresholds${path}`, ...(body ? { body: { kind: 'json', value: body } } : {}), bearer },
      options,
    )
  const { walletToken, refreshToken } = ctx.tokens.get()
  try {
    return await send(walletToken)
  } catch (error) {
    if (!(error instanceof SdkError) || error.code !== '401' || !refreshToken) throw error
    return send((await refreshTokens(ctx, refreshToken)).walletToken)
  }
}

/** GET wallet/step-up-thresholds: every chain's thresholds. */
export const getStepUpThresholds = (ctx: Context, options?: CallOptions) => held(ctx, 'GET', '', undefined, options)

/**
 * PUT (an amount) or DELETE (null) one chain's own threshold. A looser one (higher, or none) needs
 * `stepUpProof`, a `loosen-step-up` proof bound to `thresholdChangeHash`; a stricter one needs nothing.
 */
export const setStepUpThreshold = (ctx: Context, chainId: number, amount: string | null, stepUpProof?: string, options?: CallOptions) =>
  held(ctx, amount === null ? 'DELETE' : 'PUT', `/${chainId}`, { ...(amount === null ? {} : { amount }), ...(stepUpProof ? { stepUpProof } : {}) }, options)
