import { keccak256, stringToHex, type Hex } from 'viem'

// The user's own step-up threshold per chain ("ask a second factor before sending more than X"), as
// the frame's Security page and the wallet service both see it.

/**
 * The request hash a `loosen-step-up` proof is bound to: the chain and the new threshold in the
 * chain's base unit (null: removed), so a proof earned to raise it to one value cannot raise it to
 * another or remove it. The frame asks the code for it; the service recomputes it from the request.
 */
export const thresholdChangeHash = (chainId: number, above: bigint | null): Hex =>
  keccak256(stringToHex(`loosen-step-up:${chainId}:${above === null ? 'none' : above.toString()}`))
