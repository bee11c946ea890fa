import { getAddress, isAddress } from 'viem'
import type { Messages } from '../i18n.ts'
import { describeFee } from '../rpc/fees.ts'
import type { Confirmation } from '../ui-state.ts'

/** A line of the confirmation's details: what it is, and its value. */
export type Row = { label: string; value: string; testId?: string }

/** A recipient or a call's target, whole and checksummed: two addresses never read the same. */
const fullAddress = (address: string) => (isAddress(address, { strict: false }) ? getAddress(address) : address)

/** What a transaction's confirmation lists below its origin, account and network: recipient or calls, amounts, fees, nonce. */
export function transactionRows(confirmation: Confirmation, t: Messages, currency: { symbol: string; decimals: number }): Row[] {
  const { payload } = confirmation
  const rows: Row[] = payload.calls
    ? payload.calls.map((call, i) => ({
        label: t.callNumber(i + 1),
        value: `${fullAddress(call.to)} · ${call.value} ${currency.symbol}${call.data && call.data !== '0x' ? ` ${t.withData}` : ''}`,
        testId: `confirm-call-${i + 1}`,
      }))
    : [
        { label: t.to, value: payload.to ? fullAddress(payload.to) : '—', testId: 'confirm-to' },
        { label: t.amount, value: `${payload.value ?? '0'} ${currency.symbol}` },
      ]
  if (payload.sponsored) rows.push({ label: t.gasFee, value: t.sponsoredByApp, testId: 'confirm-fee' })
  else if (payload.fee) {
    const fee = describeFee(payload.fee, currency)
    rows.push({ label: t.networkFee, value: fee.maxFee, testId: 'confirm-fee' })
    rows.push({ label: payload.fee.gasPrice ? t.gasPrice : t.gas, value: t.gasTimesPrice(fee.gasLimit, fee.perGas) })
    if (fee.priority) rows.push({ label: t.priorityFee, value: fee.priority })
    rows.push({ label: t.totalMax, value: fee.total, testId: 'confirm-total' })
  }
  if (payload.nonce !== undefined) rows.push({ label: t.nonce, value: String(payload.nonce) })
  return rows
}
