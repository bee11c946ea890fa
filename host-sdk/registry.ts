import type { WalletKit } from './kit-types.ts'

/**
 * One kit per page: a second iframe would hold a second session and announce a second provider.
 * The slot lives on a global symbol so that kit.js and an npm copy of the kit see each other.
 */
const key = Symbol.for('wallet-kit.kit')
type Slot = { [key]?: WalletKit }

export const currentKit = (): WalletKit | undefined => (globalThis as Slot)[key]

/** Throws when the page already has a kit; else takes the slot for `kit` (none: only checks). */
export function claim(kit?: WalletKit): void {
  if (currentKit()) throw new Error('A wallet kit already exists on this page: reuse it (WalletKit.kit) or destroy() it first')
  if (kit) (globalThis as Slot)[key] = kit
}

export function release(kit: WalletKit): void {
  if (currentKit() === kit) delete (globalThis as Slot)[key]
}
