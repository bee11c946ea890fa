import { parseUnits } from 'viem'
import type { AppConfig } from '../../../sdk/app-config.ts'

// The app's step-up setting for transactions: above which native value (per chain) a transaction
// needs a fresh second factor. Absent or null: never (what every app had before the setting).

const amountPattern = /^\d{1,59}(\.\d{1,18})?$/

/** Why an app's `stepUp` setting is malformed, or undefined when it is well formed (or absent). */
export function checkStepUpSetting(setting: unknown): string | undefined {
  if (setting === undefined || setting === null) return undefined
  if (typeof setting !== 'object' || Array.isArray(setting)) return 'stepUp must be an object or null'
  const above = (setting as { transactionAbove?: unknown }).transactionAbove
  if (above === undefined || above === null) return undefined
  if (typeof above !== 'object' || Array.isArray(above)) return 'stepUp.transactionAbove must map chain ids to amounts'
  for (const [chainId, amount] of Object.entries(above)) {
    if (!/^[1-9]\d{0,15}$/.test(chainId)) return `stepUp.transactionAbove: ${JSON.stringify(chainId)} is not a chain id`
    if (typeof amount !== 'string' || !amountPattern.test(amount))
      return `stepUp.transactionAbove[${chainId}] must be an amount in the native unit as a decimal string, e.g. "0.5"`
  }
  return undefined
}

/**
 * The native value (in the chain's base unit) above which a transaction on `chainId` needs a step-up,
 * or undefined when the app sets none for that chain. The settings are read back from the database,
 * where an edit may have put anything: a threshold that is there but unreadable is 0 (every
 * transaction that moves value asks), never no threshold.
 */
export function transactionStepUpAbove(settings: Pick<AppConfig, 'stepUp'>, chainId: number, decimals: number): bigint | undefined {
  const above = settings.stepUp?.transactionAbove
  if (above === undefined || above === null || typeof above !== 'object') return undefined
  if (!Object.hasOwn(above, String(chainId))) return undefined
  const amount: unknown = above[String(chainId)]
  if (typeof amount !== 'string' || !amountPattern.test(amount)) return 0n
  try {
    return parseUnits(amount, decimals)
  } catch {
    return 0n
  }
}
