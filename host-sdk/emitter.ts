type Listener = (...args: never[]) => void

/** The EIP-1193 event surface: `on` / `removeListener`, plus `emit` for the kit itself. */
export function createEmitter() {
  const listeners = new Map<string, Set<Listener>>()
  return {
    on(event: string, fn: Listener) {
      listeners.set(event, (listeners.get(event) ?? new Set<Listener>()).add(fn))
    },
    removeListener(event: string, fn: Listener) {
      listeners.get(event)?.delete(fn)
    },
    emit(event: string, payload: unknown) {
      for (const fn of [...(listeners.get(event) ?? [])]) {
        try {
          ;(fn as (p: unknown) => void)(payload)
        } catch (err) {
          // A listener's bug must not stop the others or the kit.
          console.error(err)
        }
      }
    },
  }
}
