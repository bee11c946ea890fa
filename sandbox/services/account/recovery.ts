import { randomBytes } from 'node:crypto'
import { bytesToHex, hexToBytes, type Hex } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'

// The recovery secret (secret0): a 2-of-2 XOR split of the wallet's private key.
//
//   userShare   = 32 random bytes, handed to the user once as `secret0` (0x-hex) and never stored
//   serverShare = privateKey XOR userShare, stored encrypted with the master key
//
// Each share alone is uniformly random (a one-time pad), so neither the user's file nor the
// server's row reveals the key. Recovery (`POST /account/recover`, a later phase) XORs the two,
// checks that the result derives the wallet's address, and only then restores or exports the key.
// The server also keeps its own encrypted signing copy, because the wallet API signs server side
// with nothing but a wallet token; secret0 is what proves ownership for export and recovery, so a
// stolen session alone cannot take the key away.

export type SplitKey = { secret0: Hex; serverShare: Uint8Array }

export function splitKey(privateKey: Hex): SplitKey {
  const key = hexToBytes(privateKey)
  const userShare = Uint8Array.from(randomBytes(key.length))
  return { secret0: bytesToHex(userShare), serverShare: xor(key, userShare) }
}

/** The private key from both shares, or undefined if they do not rebuild the expected address. */
export function combineShares(secret0: Hex, serverShare: Uint8Array, address: Hex): Hex | undefined {
  const userShare = hexToBytes(secret0)
  if (userShare.length !== serverShare.length) return undefined
  const privateKey = bytesToHex(xor(userShare, serverShare))
  try {
    return privateKeyToAddress(privateKey).toLowerCase() === address.toLowerCase() ? privateKey : undefined
  } catch {
    return undefined
  }
}

function xor(a: Uint8Array, b: Uint8Array): Uint8Array {
  return a.map((byte, index) => byte ^ (b[index] ?? 0))
}
