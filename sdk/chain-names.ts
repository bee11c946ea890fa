/**
 * The names the smart-account screen gives these chains (1 Ethereum, 137 Polygon, 56 BSC, 8453 Base,
 * 17000 Holesky, 11155111 Sepolia), each a chain of the
 * chain table (sdk/chain-table.ts; its test checks). Kept apart from the table so that showing a
 * name loads none of viem's chain definitions (about 1,400 modules where nothing bundles them).
 */
export const smartAccountChainNames: Readonly<Record<number, string>> = {
  1: 'Ethereum',
  137: 'Polygon',
  56: 'BSC',
  8453: 'Base',
  17000: 'Holesky',
  11155111: 'Sepolia',
}
