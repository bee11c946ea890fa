import { randomUUID } from 'node:crypto'
import type { App } from '../app-config/apps.ts'
import { isUniqueViolation, type Store } from '../../infra/database/store.ts'
import { HttpError } from '../../http/exchange.ts'
import { usernameTakenMessage } from '../../../sdk/wallet/auth.ts'

// Users belong to one app and environment. E-mail and phone live on the user row (a verified
// e-mail from Google or Apple joins the same user as an e-mail code); other sign-ins are identities.

export type Provider = 'google' | 'apple' | 'telegram' | 'username'

/** The user for an e-mail within one app and environment, created on first login. */
export async function userForEmail(store: Store, app: App, email: string): Promise<string> {
  return upsertUser(store, app, 'email', email)
}

/** The user for a phone number (digits only), created on first login. */
export async function userForPhone(store: Store, app: App, phone: string): Promise<string> {
  return upsertUser(store, app, 'phone', phone)
}

async function upsertUser(store: Store, app: App, column: 'email' | 'phone', value: string): Promise<string> {
  const { rows } = await store.query<{ id: string }>(
    `INSERT INTO users (id, app_id, environment, ${column}) VALUES ($1, $2, $3, $4)
     ON CONFLICT (app_id, environment, ${column}) DO UPDATE SET ${column} = EXCLUDED.${column} RETURNING id`,
    [randomUUID(), app.appId, app.environment, value],
  )
  if (!rows[0]) throw new Error('user upsert returned no row')
  return rows[0].id
}

async function newUser(store: Store, app: App): Promise<string> {
  const id = randomUUID()
  await store.query('INSERT INTO users (id, app_id, environment) VALUES ($1, $2, $3)', [id, app.appId, app.environment])
  return id
}

async function identityUser(store: Store, app: App, provider: Provider, subject: string) {
  const { rows } = await store.query<{ user_id: string; secret_hash: string | null }>(
    'SELECT user_id, secret_hash FROM identities WHERE app_id = $1 AND environment = $2 AND provider = $3 AND subject = $4',
    [app.appId, app.environment, provider, subject],
  )
  return rows[0]
}

/**
 * The user behind a Google, Apple or Telegram subject, created on first sign-in. A verified e-mail
 * links the identity to the user who already logs in with that e-mail.
 */
export async function userForIdentity(store: Store, app: App, provider: Provider, subject: string, email?: string): Promise<string> {
  const known = await identityUser(store, app, provider, subject)
  if (known) return known.user_id
  const userId = email ? await userForEmail(store, app, email) : await newUser(store, app)
  await store.query('INSERT INTO identities (app_id, environment, provider, subject, user_id) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
    app.appId,
    app.environment,
    provider,
    subject,
    userId,
  ])
  // A parallel first sign-in may have won the insert: its user is the one.
  return (await identityUser(store, app, provider, subject))?.user_id ?? userId
}

export async function findPasswordUser(store: Store, app: App, username: string) {
  const row = await identityUser(store, app, 'username', username)
  return row?.secret_hash ? { userId: row.user_id, passwordHash: row.secret_hash } : undefined
}

/** A new user with a username and password hash; a taken username is a 400. */
export async function createPasswordUser(store: Store, app: App, username: string, passwordHash: string): Promise<string> {
  if (await identityUser(store, app, 'username', username)) throw taken()
  const userId = await newUser(store, app)
  try {
    await store.query('INSERT INTO identities (app_id, environment, provider, subject, user_id, secret_hash) VALUES ($1, $2, $3, $4, $5, $6)', [
      app.appId,
      app.environment,
      'username',
      username,
      userId,
      passwordHash,
    ])
  } catch (error) {
    if (isUniqueViolation(error)) throw taken()
    throw error
  }
  return userId
}

const taken = () => new HttpError(400, usernameTakenMessage)
