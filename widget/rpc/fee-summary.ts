/**
 * What a transaction's confirmation payload carries about its fee: wei, as decimal strings (the
 * gas price, or the EIP-1559 caps, and the totals derived from them). Types only, and importing
 * nothing from the widget, so the UI state can name it without pulling in the RPC handlers.
 */
export type FeeSummary = {
  gasLimit: string
  gasPrice?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  /** Gas limit × (max fee per gas, or gas price): the most the network may take. */
  maxFee: string
  /** The value plus `maxFee`. */
  total: string
}
