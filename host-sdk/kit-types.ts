import type { HostEvent, View } from '../bridge/index.ts'
import type { EIP1193Provider } from './provider.ts'

/** Provider events, plus `open` and `close` when the modal shows or hides. */
export type KitEvent = HostEvent | 'open' | 'close'

/** The page's one wallet kit (kit.ts createWalletKit); its own file so that registry.ts can name it without importing kit.ts. */
export type WalletKit = {
  readonly provider: EIP1193Provider
  /** Shows a modal: `connect` when nobody is connected, else `profile`, unless named. */
  open(modal?: View): Promise<void>
  close(): Promise<void>
  /** Ends the session (embedded wallet or browser wallet). */
  disconnect(): Promise<void>
  on(event: KitEvent, listener: (payload: never) => void): void
  off(event: KitEvent, listener: (payload: never) => void): void
  /** Removes the frame and every listener; another kit may be created afterwards. */
  destroy(): void
}
