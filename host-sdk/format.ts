import { formatAmount } from '../bridge/format.ts'

// The display rules are written once, in bridge/format.ts, for the host and the frame.
export { shortAddress } from '../bridge/format.ts'

/** A wei amount (hex quantity) in whole units of an 18-decimals native currency. */
export const formatWei = (hex: string): string => formatAmount(Number(BigInt(hex)) / 1e18)
