import {
  ChainDisconnectedError,
  DisconnectedError,
  InternalError,
  LimitExceededError,
  ProviderRpcError,
  UnauthorizedError,
  UserRejectedRequestError,
} from '../bridge/error-classes.ts'
import { sameAddress } from '../bridge/rpc-params.ts'
import { SdkError } from '../sdk/errors.ts'
import { confirmCloseDelayMs, maxPendingConfirmations } from './constants.ts'
import type { Confirmation, ConfirmationKind, ConfirmationPayload } from './ui-state.ts'
import type { Wallet } from './wallet.ts'

export type ConfirmRequest<T> = {
  kind: ConfirmationKind
  /**
   * What the user is shown. A function when it needs a look-up first (a fee estimate), called once
   * the request has a place in the queue: it keeps that place meanwhile, and a failed look-up
   * answers the request, unshown.
   */
  payload: ConfirmationPayload | (() => Promise<ConfirmationPayload>)
  /** Calls the wallet service once the user confirms; may run again on Try Again. */
  run: () => Promise<T>
  /** The request's 4001 text, such as 'Message signing rejected by user'. */
  rejected: string
  /** The prefix of its failure's text, such as 'Failed to sign message'. */
  failed: string
  /**
   * The user decides on the account's own device (a WalletConnect wallet): shown with 'Confirm in
   * your wallet' and sent at once; the wallet's refusal answers 4001.
   */
  onDevice?: boolean | undefined
}

type Pending = {
  req: ConfirmRequest<unknown>
  /** Null while the payload is being prepared. */
  payload: ConfirmationPayload | null
  resolve(v: unknown): void
  reject(e: Error): void
  lastError: Error | null
}

type PermissionRefusal = { status?: unknown; data?: { acceptPermissionPage?: unknown } }

/** A wallet's own refusal: EIP-1193's 4001, or WalletConnect's USER_REJECTED (5000) and its variants. */
export function isUserRejection(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === 4001 || code === 5000 || code === 5002
}

/**
 * The wallet service refuses signing for a wallet without permission with 407
 * (the envelope's status; the sandbox sends it over HTTP 403, since browsers treat an HTTP 407 as a
 * proxy challenge). Returns the permission-accept page when it is one.
 */
function permissionRefusal(err: unknown): { page: string | null } | null {
  if (!(err instanceof SdkError)) return null
  const details = err.details as PermissionRefusal | undefined
  if (err.code !== '407' && details?.status !== 407) return null
  const page = details?.data?.acceptPermissionPage
  return { page: typeof page === 'string' && /^https?:\/\//.test(page) ? page : null }
}

/**
 * One confirmation at a time (later requests wait their turn, at most `maxPendingConfirmations` per
 * page): idle → shown (closing disabled) → confirm (loading) → success closes after 500 ms; failure
 * shows the error and offers Try Again; Reject answers 4001, Reject all answers every pending one
 * 4001. A wallet without permission gets the need-permission modal instead.
 */
export function createConfirmations(
  wallet: Wallet,
  hooks: {
    afterFailure?: () => Promise<void>
    /** The address signing now (accounts/active.ts); the embedded wallet's session when not given. */
    signer?: () => string | undefined
  } = {},
) {
  // The request on screen and the count waiting are this queue's to write, no one else's.
  const state = wallet.claimConfirmationState()
  const queue: Pending[] = []
  let current: Pending | null = null
  let nextId = 1

  const rejection = (p: Pending) => new UserRejectedRequestError({ message: p.req.rejected })
  const publish = () => wallet.ui.get().queued !== queue.length && state.set({ queued: queue.length })

  // A paired wallet holding requests went away (it ended the session, or switched accounts): they
  // will never be answered for this account, so they are answered here, and the modal closes.
  wallet.ui.subscribe(() => {
    const shown = wallet.ui.get().confirmation
    if (!current?.req.onDevice || !shown) return
    const session = wallet.ui.get().session
    if (session?.walletConnect && sameAddress(session.address, shown.payload.from)) return
    const all = [current, ...queue.splice(0)]
    current = null
    state.set({ confirmation: null, queued: 0 })
    wallet.close()
    for (const p of all) p.reject(new DisconnectedError({ message: 'The wallet disconnected or changed accounts; request again' }))
  })

  wallet.onClose(() => {
    // The host closed the modal (kit.close()): nothing may stay pending.
    const all = current ? [current, ...queue.splice(0)] : queue.splice(0)
    current = null
    state.set({ confirmation: null, queued: 0 })
    for (const p of all) p.reject(rejection(p))
  })

  /** Shows the next request once it is ready; strictly in the order the requests came. */
  function pump() {
    const next = queue[0]
    if (current || !next?.payload) return publish()
    current = queue.shift()!
    const onDevice = current.req.onDevice === true
    state.set({
      confirmation: {
        id: nextId++,
        kind: current.req.kind,
        payload: next.payload,
        status: onDevice ? 'wallet' : 'idle',
        error: null,
        ...(onDevice && { onDevice }),
      },
      queued: queue.length,
    })
    wallet.open('transaction_confirmation')
    if (onDevice) void runOnDevice(current)
  }

  /** Sent to the wallet as soon as it is shown; the user answers there. */
  async function runOnDevice(p: Pending) {
    const shown = wallet.ui.get().confirmation!
    try {
      const value = await p.req.run()
      if (current === p) finish(() => p.resolve(value))
    } catch (err) {
      if (current !== p) return
      if (isUserRejection(err)) return finish(() => p.reject(rejection(p)))
      const reason = err instanceof Error && err.message ? err.message : ((err as { message?: unknown })?.message as string) || 'Unknown error'
      p.lastError = err instanceof ProviderRpcError && err.code > 0 ? err : new InternalError({ message: `${p.req.failed}: ${reason}` })
      state.set({ confirmation: { ...shown, status: 'error', error: p.lastError.message } })
    }
  }

  function finish(outcome: () => void) {
    current = null
    state.set({ confirmation: null })
    outcome()
    if (queue.length === 0) return wallet.close()
    // The next one is still being prepared: hidden meanwhile (not closed, which would reject it).
    if (!queue[0]!.payload) wallet.hide()
    pump()
  }

  /** The wallet may not sign at all yet: this request and every one waiting behind it get 4100. */
  function askPermission(p: Pending, page: string | null) {
    wallet.requirePermission(page)
    current = null
    const waiting = queue.splice(0)
    state.set({ confirmation: null, queued: 0 })
    wallet.open('need_permission')
    for (const r of [p, ...waiting]) r.reject(new UnauthorizedError({ message: 'Permission needed: set up permission for this wallet first' }))
  }

  return {
    request<T>(req: ConfirmRequest<T>): Promise<T> {
      if (!wallet.ui.get().account.isPermissionGranted) {
        wallet.open('need_permission')
        return Promise.reject(new UnauthorizedError({ message: 'Permission needed: set up permission for this wallet first' }))
      }
      // EIP-1474's -32005 "limit exceeded" names this case; 4001 would claim the user refused, and
      // MetaMask's -32002 "resource unavailable" means "the same request is already pending".
      if (queue.length + (current ? 1 : 0) >= maxPendingConfirmations)
        return Promise.reject(
          new LimitExceededError({
            message: `${maxPendingConfirmations} requests are already waiting for the user's confirmation: try again once they are answered`,
          }),
        )
      return new Promise<T>((resolve, reject) => {
        const p: Pending = { req: req as ConfirmRequest<unknown>, payload: null, resolve: resolve as (v: unknown) => void, reject, lastError: null }
        queue.push(p)
        if (typeof req.payload !== 'function') {
          p.payload = req.payload
          return pump()
        }
        publish()
        req.payload().then(
          (payload) => {
            p.payload = payload
            if (queue.includes(p)) pump()
          },
          (err: unknown) => {
            const at = queue.indexOf(p)
            if (at < 0) return
            queue.splice(at, 1)
            reject(err instanceof Error ? err : new InternalError({ message: String(err) }))
            pump()
          },
        )
      })
    },

    async confirm() {
      const p = current
      const shown = wallet.ui.get().confirmation
      if (!p || !shown || shown.status === 'loading' || shown.status === 'success' || shown.status === 'wallet' || p.req.onDevice) return
      // The account may have changed since the request was shown (another tab logged in).
      const signer = hooks.signer ? hooks.signer() : wallet.ui.get().session?.address
      if (!signer || !sameAddress(signer, shown.payload.from))
        return finish(() => p.reject(new UnauthorizedError({ message: 'The connected account changed; request again' })))
      // So did the chain (wallet_switchEthereumChain meanwhile): what was shown is what runs, or nothing.
      if (wallet.chainId() !== shown.payload.chainId)
        return finish(() => p.reject(new ChainDisconnectedError({ message: 'The network changed since this request was made; request again' })))
      state.set({ confirmation: { ...shown, status: 'loading', error: null } })
      try {
        const value = await p.req.run()
        if (current !== p) return
        state.set({ confirmation: { ...shown, status: 'success', error: null } })
        setTimeout(() => current === p && finish(() => p.resolve(value)), confirmCloseDelayMs)
      } catch (err) {
        if (current !== p) return
        // The user refused a step the confirmation asked (a step-up code): a rejection like Reject.
        if (isUserRejection(err)) return finish(() => p.reject(rejection(p)))
        const refusal = permissionRefusal(err)
        // A 407 opens the need-permission modal; any failure then refreshes the token (a stale token is the likeliest cause).
        if (refusal) askPermission(p, refusal.page)
        else {
          const reason = err instanceof Error && err.message ? err.message : 'Unknown error'
          p.lastError = new InternalError({ message: `${p.req.failed}: ${reason}` })
          state.set({ confirmation: { ...shown, status: 'error', error: `${p.req.failed}: ${reason}` } })
        }
        await hooks.afterFailure?.().catch(() => {})
      }
    },

    /** Reject (or Close after a failure, which answers with that failure). */
    reject() {
      const p = current
      // While a paired wallet holds the request only its answer counts (it could still sign it).
      const status = wallet.ui.get().confirmation?.status
      if (!p || status === 'loading' || status === 'wallet') return
      finish(() => p.reject(p.lastError ?? rejection(p)))
    },

    /** Every pending request answered 4001 at once, except one already being carried out. */
    rejectAll() {
      const status = wallet.ui.get().confirmation?.status
      const busy = status === 'loading' || status === 'success' || status === 'wallet'
      const all = [...(current && !busy ? [current] : []), ...queue.splice(0)]
      if (!busy) {
        current = null
        state.set({ confirmation: null })
      }
      publish()
      for (const p of all) p.reject(rejection(p))
      if (!busy) wallet.close()
    },
    /**
     * Shows a request another page holds (the secure window follows the frame's, which decides);
     * nothing is queued here.
     */
    mirror(confirmation: Confirmation, queued: number) {
      state.set({ confirmation, queued })
      if (wallet.ui.get().view !== 'transaction_confirmation') wallet.open('transaction_confirmation')
    },
  }
}

export type Confirmations = ReturnType<typeof createConfirmations>

/** What a screen may do with the request it shows: the frame's queue, or the secure window's line to it. */
export type Decisions = Pick<Confirmations, 'confirm' | 'reject' | 'rejectAll'>
