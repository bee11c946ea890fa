import * as Provider from 'ox/Provider'
import * as RpcResponse from 'ox/RpcResponse'
import { SdkError } from '../sdk/index.ts'
import { confirmCloseDelayMs } from './constants.ts'
import type { ConfirmationKind, ConfirmationPayload } from './ui-state.ts'
import type { Wallet } from './wallet.ts'

export type ConfirmRequest<T> = {
  kind: ConfirmationKind
  payload: ConfirmationPayload
  /** Calls the wallet service once the user confirms; may run again on Try Again. */
  run: () => Promise<T>
  /** SPEC.md section 8: 'Message signing rejected by user', … */
  rejected: string
  /** SPEC.md section 8: 'Failed to sign message', … */
  failed: string
}

type Pending = ConfirmRequest<unknown> & { resolve(v: unknown): void; reject(e: Error): void; lastError: Error | null }

type PermissionRefusal = { status?: unknown; data?: { acceptPermissionPage?: unknown } }

/**
 * SPEC.md section 8: the wallet service refuses signing for a wallet without permission with 407
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
 * One confirmation at a time (later requests wait their turn): idle → shown (closing disabled)
 * → confirm (loading) → success closes after 500 ms; failure shows the error and offers Try Again;
 * Reject answers 4001. A wallet without permission gets the need-permission modal instead.
 */
export function createConfirmations(wallet: Wallet, hooks: { afterFailure?: () => Promise<void> } = {}) {
  const queue: Pending[] = []
  let current: Pending | null = null
  let nextId = 1

  wallet.onClose(() => {
    // The host closed the modal (kit.close()): nothing may stay pending.
    const all = current ? [current, ...queue.splice(0)] : queue.splice(0)
    current = null
    wallet.ui.set({ confirmation: null })
    for (const p of all) p.reject(new Provider.UserRejectedRequestError({ message: p.rejected }))
  })

  function showNext() {
    current = queue.shift() ?? null
    if (!current) return
    wallet.ui.set({ confirmation: { id: nextId++, kind: current.kind, payload: current.payload, status: 'idle', error: null } })
    wallet.open('transaction_confirmation')
  }

  function finish(outcome: () => void) {
    current = null
    wallet.ui.set({ confirmation: null })
    outcome()
    if (queue.length > 0) showNext()
    else wallet.close()
  }

  function askPermission(p: Pending, page: string | null) {
    wallet.ui.set({ account: { isPermissionGranted: false, acceptPermissionPage: page } })
    current = null
    wallet.ui.set({ confirmation: null })
    wallet.open('need_permission')
    p.reject(new Provider.UnauthorizedError({ message: 'Permission needed: set up permission for this wallet first' }))
  }

  return {
    request<T>(req: ConfirmRequest<T>): Promise<T> {
      if (!wallet.ui.get().account.isPermissionGranted) {
        wallet.open('need_permission')
        return Promise.reject(new Provider.UnauthorizedError({ message: 'Permission needed: set up permission for this wallet first' }))
      }
      return new Promise<T>((resolve, reject) => {
        queue.push({ ...req, resolve: resolve as (v: unknown) => void, reject, lastError: null })
        if (!current) showNext()
      })
    },

    async confirm() {
      const p = current
      const shown = wallet.ui.get().confirmation
      if (!p || !shown || shown.status === 'loading' || shown.status === 'success') return
      // The account may have changed since the request was shown (another tab logged in).
      const signer = wallet.ui.get().session?.address
      if (!signer || signer.toLowerCase() !== p.payload.from.toLowerCase())
        return finish(() => p.reject(new Provider.UnauthorizedError({ message: 'The connected account changed; request again' })))
      wallet.ui.set({ confirmation: { ...shown, status: 'loading', error: null } })
      try {
        const value = await p.run()
        if (current !== p) return
        wallet.ui.set({ confirmation: { ...shown, status: 'success', error: null } })
        setTimeout(() => current === p && finish(() => p.resolve(value)), confirmCloseDelayMs)
      } catch (err) {
        if (current !== p) return
        const refusal = permissionRefusal(err)
        if (refusal) return askPermission(p, refusal.page)
        const reason = err instanceof Error && err.message ? err.message : 'Unknown error'
        p.lastError = new RpcResponse.InternalError({ message: `${p.failed}: ${reason}` })
        wallet.ui.set({ confirmation: { ...shown, status: 'error', error: `${p.failed}: ${reason}` } })
        await hooks.afterFailure?.().catch(() => {})
      }
    },

    /** Reject (or Close after a failure, which answers with that failure). */
    reject() {
      const p = current
      if (!p || wallet.ui.get().confirmation?.status === 'loading') return
      finish(() => p.reject(p.lastError ?? new Provider.UserRejectedRequestError({ message: p.rejected })))
    },
  }
}

export type Confirmations = ReturnType<typeof createConfirmations>
