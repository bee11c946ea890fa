/** What the token holder keeps for one session: wallet, refresh and ramp tokens, the ramp client secret, and the evm address they belong to. */
export type Tokens = {
  walletToken?: string
  refreshToken?: string
  rampAccessToken?: string
  rampClientSecret?: string
  address?: string
}

export type TokenHolder = {
  get(): Tokens
  /** Merges the given fields; a field set to undefined is removed. */
  set(patch: Tokens): void
  /** Removes the given fields, or everything. */
  clear(keys?: readonly (keyof Tokens)[]): void
  /** Called after every change, so a widget can persist the session. Returns the unsubscribe function. */
  subscribe(listener: (tokens: Tokens) => void): () => void
}

export function createTokenHolder(initial: Tokens = {}): TokenHolder {
  let state: Tokens = compact(initial)
  const listeners = new Set<(tokens: Tokens) => void>()
  const emit = () => {
    for (const listener of listeners) listener(state)
  }
  return {
    get: () => state,
    set(patch) {
      state = compact({ ...state, ...patch })
      emit()
    },
    clear(keys) {
      if (!keys) state = {}
      else {
        const next = { ...state }
        for (const key of keys) delete next[key]
        state = next
      }
      emit()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

function compact(tokens: Tokens): Tokens {
  const out: Tokens = {}
  for (const [key, value] of Object.entries(tokens) as [keyof Tokens, string | undefined][]) {
    if (value !== undefined) out[key] = value
  }
  return Object.freeze(out) as Tokens
}
