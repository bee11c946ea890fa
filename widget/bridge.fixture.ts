import { penpalPeer } from '../bridge/penpal-peer.fixture.ts'
import { type Admission, serveHost } from './bridge.ts'
import type { RpcContext } from './rpc/types.ts'

/**
 * Test support: the frame's bridge (serveHost) for `hostOrigin`, before its app config has admitted
 * the page (`admit` does), with the page played by a Penpal peer from `origin` (the host page's own,
 * unless a test plays another). `window.parent` is the played page until `close()`.
 */
export function frameAwaitingAdmission(options: { hostOrigin: string; origin?: string; context: Promise<RpcContext> }) {
  const host = penpalPeer({ role: 'host', origin: options.origin ?? options.hostOrigin })
  const parent = Object.getOwnPropertyDescriptor(window, 'parent')!
  Object.defineProperty(window, 'parent', { value: host.window, configurable: true })
  let admit: (admission: Admission) => void = () => {}
  serveHost({ hostOrigin: options.hostOrigin, admission: new Promise((resolve) => (admit = resolve)), context: options.context })
  return {
    host,
    admit,
    close() {
      host.close()
      Object.defineProperty(window, 'parent', parent)
    },
  }
}

/** Whether `promise` settles within a few turns of the event loop (a call the frame holds does not). */
export const settlesSoon = (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 50))])
