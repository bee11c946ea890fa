/** SPEC.md section 5: display rules for addresses and amounts. */

export const shortAddress = (address: string): string =>
  address.length > 10 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address

/** Under 1: up to 2 decimals; 1 to under 1000: 2 decimals; otherwise whole numbers. */
export function formatAmount(value: number | string): string {
  const n = typeof value === 'string' ? Number(value) : value
  if (!Number.isFinite(n)) return '0'
  const abs = Math.abs(n)
  if (abs < 1) return n.toLocaleString('en-US', { maximumFractionDigits: 2 })
  if (abs < 1000) return n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  return Math.trunc(n).toLocaleString('en-US')
}

const suffixes = ['', 'k', 'm', 'b', 't'] as const

/** Compact amounts with the suffixes k, m, b, t. */
export function compactAmount(value: number | string): string {
  const n = typeof value === 'string' ? Number(value) : value
  if (!Number.isFinite(n)) return '0'
  let scaled = n
  let i = 0
  while (Math.abs(scaled) >= 1000 && i < suffixes.length - 1) {
    scaled /= 1000
    i++
  }
  if (i === 0) return formatAmount(n)
  return `${Number(scaled.toFixed(2))}${suffixes[i]}`
}
