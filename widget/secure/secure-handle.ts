import { createStore, type Store } from '../store.ts'

export type SecurePurpose = 'confirm' | 'login'

/** What the frame shows of its secure window. */
export type SecureState = {
  /** `failed`: the window came up but the service refused its channel (too many from this network, say), so it was closed. */
  status: 'idle' | 'open' | 'blocked' | 'failed'
  purpose: SecurePurpose | null
  /**
   * The frame's confirmation is asking the user a second factor (its step-up screen is up, on the
   * page): the window, where the user clicked Confirm, says to answer it there.
   */
  askingStepUp?: boolean
}

export type SecureFlowsLike = { open(purpose: SecurePurpose): void }

export type SecureHandle = {
  readonly state: Store<SecureState>
  /** Loads the secure window's code ahead of the click (the button calls it when it shows). */
  preload(): void
  /** From a click in the frame only: its user activation is what lets the window open. */
  open(purpose: SecurePurpose): void
}

/**
 * The frame's handle on its secure window, small enough for the first route: the flows themselves
 * (frame-flows.ts) load when a page that may need them shows, so they are there by the click. A
 * click that still finds them loading opens the window once they arrive; a browser that no longer
 * counts that as the click's doing blocks it, and the user gets the blocked notice and a retry.
 */
export function createSecureHandle(load: (state: Store<SecureState>) => Promise<SecureFlowsLike>): SecureHandle {
  const state = createStore<SecureState>({ status: 'idle', purpose: null })
  let flows: SecureFlowsLike | null = null
  let loading: Promise<SecureFlowsLike> | null = null
  const get = () =>
    (loading ??= load(state).then(
      (loaded) => (flows = loaded),
      (error: unknown) => {
        loading = null
        throw error
      },
    ))
  return {
    state,
    preload: () => void get().catch(() => {}),
    open(purpose) {
      if (flows) return flows.open(purpose)
      get().then(
        (loaded) => loaded.open(purpose),
        () => state.set({ status: 'blocked', purpose }),
      )
    },
  }
}
