import { defineWalletKitElement } from './element/define.ts'

/**
 * `wallet-kit/element`: defines <wallet-kit> when imported in a browser (no React needed: the
 * element renders with a small React-compatible renderer). Importing it on a server does nothing.
 */
defineWalletKitElement()

export { defineWalletKitElement }
