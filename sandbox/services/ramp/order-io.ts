import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { formatUnits } from 'viem'
import type { Deps } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import type { App } from '../app-config/apps.ts'
import type { OnrampCrypto } from './pricing.ts'
import { type Direction, listRampOrders, payoutDeadlineMs, type RampOrderRow, type RecipientRow, statusConditions } from './order-queries.ts'

// The ramp API's inputs (bodies, paging, recipients' fields) and answers (order and recipient views).

export const sandboxBanks = [{ id: 'demo-bank', code: 'DEMO', name: 'Sandbox Bank' }]

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())

// biome-ignore lint/suspicious/noExplicitAny: a JSON body, checked field by field
export type Body = Record<string, any>

export async function readBody(c: Context): Promise<Body> {
  let value: unknown
  try {
    value = JSON.parse(await c.req.text())
  } catch {
    throw new HttpError(400, 'The body must be a JSON object')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, 'The body must be a JSON object')
  return value as Body
}

/** A field as a trimmed string (numbers accepted for amounts), or a 400 naming it. */
export function text(body: Body, name: string, alias?: string): string {
  const value = body[name] ?? (alias ? body[alias] : undefined)
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string' || value.trim() === '') throw new HttpError(400, `${name} is required`)
  // PostgreSQL text holds no NUL: refused here, not a 500 there.
  if (value.includes('\0')) throw new HttpError(400, `${name} must not contain a NUL character`)
  return value.trim()
}

/** A crypto id from /reference/cryptos (eth-local-1); `chain`, when given (network slug or chain id), must be its chain. */
export function findCrypto(all: OnrampCrypto[], id: string, chain: unknown): OnrampCrypto {
  const crypto = all.find((entry) => entry.id === id)
  if (!crypto) throw new HttpError(400, `Unknown crypto: ${id}`)
  if (chain !== undefined && chain !== crypto.network && chain !== crypto.chainId && chain !== String(crypto.chainId))
    throw new HttpError(400, `chain ${JSON.stringify(chain)} is not the chain of ${id} (${crypto.network}, ${crypto.chainId})`)
  return crypto
}

export function paging(c: Context) {
  const number = (name: string, fallback: number, max: number) => {
    const raw = c.req.query(name)
    if (raw === undefined) return fallback
    if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw new HttpError(400, `${name} must be a whole number from 1 to ${max}`)
    return Number(raw)
  }
  return { page: number('page', 1, 100_000), limit: number('limit', 10, 100) }
}

export async function listPage(c: Context, deps: Deps, app: App, direction: Direction, statuses: string[]) {
  const { page, limit } = paging(c)
  const status = c.req.query('status')
  if (status !== undefined && !statuses.includes(status)) throw new HttpError(400, `status must be one of ${statuses.join(', ')}`)
  if (status !== undefined && !statusConditions[status]) throw new HttpError(400, 'Unknown status')
  const { rows, total } = await listRampOrders(deps.store, app, direction, { status, page, limit })
  return { rows, page, limit, totalDocs: total, totalPages: Math.ceil(total / limit) }
}

function orderStatus(row: RampOrderRow): string {
  const expired = new Date(row.expires_at).getTime() <= Date.now()
  if (row.direction === 'offramp') return row.paid_at ? 'paid_out' : expired ? 'expired' : 'pending'
  if (row.tx_hash) return 'completed'
  if (row.paid_at) return row.failed_at || Date.now() - new Date(row.paid_at).getTime() >= payoutDeadlineMs ? 'failed' : 'paid'
  return expired ? 'expired' : 'pending'
}

export function onrampView(deps: Deps, app: App, row: RampOrderRow) {
  const status = orderStatus(row)
  const link = new URLSearchParams({
    clientSecret: app.settings.rampableClientSecret ?? '',
    receiverWalletAddress: row.receiver ?? '',
    inputAmount: row.fiat_amount,
    inputCurrency: row.fiat,
    outputCurrency: row.crypto_id,
    // The page completes this very order, and only if the rest of the link is what was ordered.
    orderId: row.id,
  })
  return {
    id: row.id,
    type: 'onramp',
    status,
    inputAmount: row.fiat_amount,
    inputCurrency: row.fiat,
    outputCurrency: row.crypto_id,
    coin: row.asset,
    chainId: row.chain_id,
    receiverWalletAddress: row.receiver,
    outputAmount: formatUnits(BigInt(row.crypto_amount), 18),
    quote: row.quote,
    paymentUrl: `${deps.origin()}/onramp?${link}`,
    txHash: row.tx_hash,
    // Why the payout failed; the payment link pays a failed order again.
    failureReason: status === 'failed' ? (row.failure_reason ?? `The payout was not confirmed within ${payoutDeadlineMs / 60_000} minutes`) : null,
    createdAt: iso(row.created_at),
    paidAt: iso(row.paid_at),
    expiresAt: iso(row.expires_at),
  }
}

export function offrampView(row: RampOrderRow) {
  const status = orderStatus(row)
  // The recipient's details as they were when the order was made (payout_to).
  const recipient = row.payout_to
  return {
    id: row.id,
    type: 'offramp',
    status,
    inputAmount: formatUnits(BigInt(row.crypto_amount), 18),
    inputCurrency: row.crypto_id,
    coin: row.asset,
    chainId: row.chain_id,
    outputCurrency: row.fiat,
    outputAmount: row.fiat_amount,
    quote: row.quote,
    recipientId: row.recipient_id,
    depositAddress: row.deposit_address,
    ...(row.asset === 'DEMO' ? { tokenAddress: demoContracts.demoToken.address } : {}),
    depositTxHash: row.tx_hash,
    payout:
      status === 'paid_out' && recipient
        ? {
            bank: recipient.bank,
            accountNumber: masked(recipient.accountNumber),
            name: recipient.name,
            amount: row.fiat_amount,
            currency: row.fiat,
            reference: `SBX-${row.id.slice(4, 16).toUpperCase()}`,
          }
        : null,
    createdAt: iso(row.created_at),
    paidOutAt: iso(row.paid_at),
    expiresAt: iso(row.expires_at),
  }
}

const masked = (account: string) => `${'*'.repeat(Math.max(account.length - 4, 0))}${account.slice(-4)}`

export function recipientView(row: RecipientRow) {
  return { id: row.id, bank: row.bank, accountNumber: row.account_number, name: row.name, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) }
}

/** A recipient's fields, checked: all three on create, at least one on update; unknown fields are refused. */
export function recipientFields(body: Body, create: boolean): Partial<Pick<RecipientRow, 'bank' | 'account_number' | 'name'>> {
  const allowed = ['bank', 'accountNumber', 'name']
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key))
  if (unknown.length) throw new HttpError(400, `Unknown field: ${unknown.join(', ')}`)
  const problems: string[] = []
  const fields: Partial<Pick<RecipientRow, 'bank' | 'account_number' | 'name'>> = {}
  const given = (name: string) => body[name] !== undefined
  if (given('bank') || create) {
    const bank = sandboxBanks.find((entry) => entry.id === body.bank || entry.code === body.bank)
    if (!bank) problems.push(`bank must be one of ${sandboxBanks.map((entry) => entry.id).join(', ')} (GET /v1/reference/banks)`)
    else fields.bank = bank.id
  }
  if (given('accountNumber') || create) {
    if (typeof body.accountNumber !== 'string' || !/^\d{6,20}$/.test(body.accountNumber)) problems.push('accountNumber must be 6 to 20 digits')
    else fields.account_number = body.accountNumber
  }
  if (given('name') || create) {
    const name = typeof body.name === 'string' ? body.name.trim() : ''
    if (!/^[\p{L}][\p{L} .,'-]{0,99}$/u.test(name)) problems.push("name must be 1 to 100 letters, spaces and . , ' -")
    else fields.name = name
  }
  if (!create && !Object.keys(fields).length && !problems.length) problems.push('Nothing to update: give bank, accountNumber or name')
  if (problems.length) throw new HttpError(400, problems.join('; '))
  return fields
}
