/**
 * How addresses and amounts are shown, written once for the host's button and the wallet frame,
 * so both show a balance the same way: under 1, up to 2 decimals; from 1 to under 1000, 2
 * decimals; from 1000 on, whole numbers. Amounts are cut, never rounded: a balance never shows
 * more than there is (999.999 is 999.99, not 1,000.00).
 */

/** Addresses show their first 6 and last 4 characters. */
export const shortAddress = (address: string): string => (address.length > 10 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address)

/** `n` (not negative) cut to 2 decimals: its whole part, and 2 decimals. */
const cut = (n: number): [number, string] => {
  // toFixed with spare digits first: 0.29 * 100 is 28.999…, but 0.29.toFixed(12) is exact enough.
  const [whole = '0', decimals = ''] = n.toFixed(12).split('.')
  return [Number(whole), decimals.slice(0, 2)]
}

/** Under 1: up to 2 decimals; 1 to under 1000: 2 decimals; otherwise whole numbers (1,234). */
export function formatAmount(value: number | string): string {
  const n = Number(value)
  if (!Number.isFinite(n)) return '0'
  const abs = Math.abs(n)
  const [whole, decimals] = cut(abs)
  const text = abs < 1 ? `0.${decimals}`.replace(/\.?0+$/, '') : abs < 1000 ? `${whole}.${decimals}` : whole.toLocaleString('en-US')
  return n < 0 && text !== '0' ? `-${text}` : text
}

/** Compact amounts, where space is short: under 1000 as above, then the suffixes k, m, b, t (1.23k). */
export function compactAmount(value: number | string): string {
  const n = Number(value)
  let scaled = Math.abs(n)
  let i = 0
  for (; scaled >= 1000 && i < 4; i++) scaled /= 1000
  if (!i) return formatAmount(n)
  const [whole, decimals] = cut(scaled)
  return `${n < 0 ? '-' : ''}${`${whole}.${decimals}`.replace(/\.?0+$/, '')}${'kmbt'[i - 1]}`
}
