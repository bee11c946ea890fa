import { randomUUID } from 'node:crypto'
import type { Store } from '../../infra/database/store.ts'

export type Channel = 'email' | 'whatsapp'

/** A dev inbox entry, as the contract's GET /dev/api/inbox returns it. */
export type InboxMessage = { id: string; to: string; channel: Channel; subject: string; text: string; code: string | null; createdAt: string }

/** How long the dev inbox keeps a message: its codes are good for minutes. */
export const inboxLifetimeHours = 24

/**
 * Stores a message, first deleting up to 10 of the oldest ones past the inbox's lifetime (by the
 * primary key, so it costs little): each message stored takes more than one old one away, so the
 * table holds about one lifetime's messages, which the per-IP code budget bounds.
 */
export async function deliver(store: Store, message: { appId: string; to: string; channel: Channel; subject: string; text: string; code?: string }) {
  await store.query(
    `DELETE FROM inbox_messages WHERE seq IN (SELECT seq FROM inbox_messages ORDER BY seq LIMIT 10) AND created_at < now() - interval '${inboxLifetimeHours} hours'`,
  )
  await store.query('INSERT INTO inbox_messages (id, app_id, recipient, channel, subject, body, code) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    randomUUID(),
    message.appId,
    message.to,
    message.channel,
    message.subject,
    message.text,
    message.code ?? null,
  ])
}

type Row = { id: string; recipient: string; channel: Channel; subject: string; body: string; code: string | null; created_at: Date }

/** Newest first; all recipients when `to` is not given. */
export async function listInbox(store: Store, options: { to?: string | undefined; limit?: number } = {}): Promise<InboxMessage[]> {
  const limit = options.limit ?? 100
  const { rows } = options.to
    ? await store.query<Row>('SELECT * FROM inbox_messages WHERE recipient = $1 ORDER BY seq DESC LIMIT $2', [options.to, limit])
    : await store.query<Row>('SELECT * FROM inbox_messages ORDER BY seq DESC LIMIT $1', [limit])
  return rows.map((row) => ({
    id: row.id,
    to: row.recipient,
    channel: row.channel,
    subject: row.subject,
    text: row.body,
    code: row.code,
    createdAt: new Date(row.created_at).toISOString(),
  }))
}
