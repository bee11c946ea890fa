// Origin matching is written once, in bridge/origins.ts, for the wallet frame and the sandbox.
export { isAllowedOrigin, originMatches } from '../bridge/origins.ts'
