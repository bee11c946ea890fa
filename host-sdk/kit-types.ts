import type { HostEvent, IdentityToken, View } from '../bridge/index.ts'
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
  /**
   * A short-lived JWT (ES256) naming the signed-in user, for your own server: post it there and
   * check it with `verifyIdentityToken` (`wallet-kit/sdk`). `nonce` (8 to 128 visible ASCII
   * characters), when your server gave one, is signed into the token. Rejects with 4100 when nobody
   * is signed in or this page is not connected.
   */
  getIdentityToken(options?: { nonce?: string }): Promise<IdentityToken>
  on(event: KitEvent, listener: (payload: never) => void): void
  off(event: KitEvent, listener: (payload: never) => void): void
  /** Removes the frame and every listener; another kit may be created afterwards. */
  destroy(): void
}
