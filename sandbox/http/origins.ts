// Origin matching is written once, in bridge/origins.ts, for the sandbox and the wallet frame.
export { isAllowedOrigin as isOriginAllowed, isOriginPattern } from '../../bridge/origins.ts'
