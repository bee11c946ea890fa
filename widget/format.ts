// The display rules (amounts, compact amounts, addresses as their first 6 and last 4 characters) are written once, in bridge/format.ts, for the frame and the host.
export { compactAmount, formatAmount, shortAddress } from '../bridge/format.ts'
