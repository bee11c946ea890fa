/** The native currency symbol shown beside a balance; ETH unless listed. */
const symbols: Readonly<Record<number, string>> = {
  56: 'BNB',
  97: 'tBNB',
  137: 'POL',
  80002: 'POL',
  43114: 'AVAX',
  43113: 'AVAX',
  250: 'FTM',
  100: 'XDAI',
  204: 'BNB',
  5611: 'tBNB',
  25: 'CRO',
  1284: 'GLMR',
  42220: 'CELO',
  44787: 'CELO',
  5000: 'MNT',
  5003: 'MNT',
}
export const nativeSymbol = (chainId: number): string => symbols[chainId] ?? 'ETH'
