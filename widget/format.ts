// The display rules (SPEC.md section 5) are written once, in bridge/format.ts, for the frame and the host.
export { compactAmount, formatAmount, shortAddress } from '../bridge/format.ts'
