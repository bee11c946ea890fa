/** SPEC.md section 5: addresses show their first 6 and last 4 characters. */
export const shortAddress = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`

const fixed = (n: number, digits: number) => n.toFixed(digits)
const upTo2 = (n: number) => String(Math.floor(n * 100) / 100)

/**
 * SPEC.md section 5: under 1 shows up to 2 decimals, 1 to under 1000 shows 2 decimals, larger
 * amounts are compact with the suffixes k, m, b, t.
 */
export function formatAmount(n: number): string {
  if (n < 1) return upTo2(n)
  if (n < 1000) return fixed(Math.floor(n * 100) / 100, 2)
  let i = 0
  while (n >= 1000 && i < 4) {
    n /= 1000
    i++
  }
  return `${fixed(Math.floor(n * 100) / 100, 2).replace(/\.?0+$/, '')}${'kmbt'[i - 1]}`
}

/** A wei amount (hex quantity) in whole units of an 18-decimals native currency. */
export const formatWei = (hex: string): string => formatAmount(Number(BigInt(hex)) / 1e18)
