// Origin matching is written once, in bridge/origins.ts, for the wallet frame and the sandbox.
export { isAllowedOrigin } from '../bridge/origins.ts'
