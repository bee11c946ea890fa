import { type Entries, indexedDbEntries, probeEntries, sessionDatabase } from './storage.ts'
import { topicKey, walletConnectStorage } from './walletconnect/storage.ts'

/**
 * What the frame starts before its core's code has arrived. The entry (main.ts) is a small file
 * that runs as soon as it is fetched, while the core is still on its way: it opens and probes the
 * frame's IndexedDB database (the slowest step of a first load, where the browser creates it) and
 * reads the stored WalletConnect topic from that one's own database, both at once. The core waits
 * for the probe as it always did, and falls back to memory on the same terms (session.ts).
 */
export type EarlyStart = {
  /** The session database, written and read once: resolves once storing works, rejects if not. */
  probed: Promise<Entries>
  /** The WalletConnect topic stored before this load, for a frame that holds WalletConnect sessions. */
  walletConnectTopic?: Promise<unknown>
}

export function beginStart(options: { walletConnect?: boolean } = {}): EarlyStart {
  const probed = probeEntries(() => indexedDbEntries(sessionDatabase()))
  // Awaited by the core, which reports a failure (said once, then memory): not an unhandled rejection here.
  probed.catch(() => {})
  if (!options.walletConnect) return { probed }
  // Its own database, opened beside the session's; used only if the probe finds storage allowed.
  const walletConnectTopic = (async () => walletConnectStorage(true).getItem(topicKey))()
  walletConnectTopic.catch(() => {})
  return { probed, walletConnectTopic }
}
