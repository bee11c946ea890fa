import type { Store } from '../../infra/database/store.ts'
import { toApp, type App, type AppRow, type AppSeed, type Environment } from './apps.ts'

// Every SQL statement on the apps table.

/** The seed file is the source of truth for seeded apps: edits apply on the next start. */
export async function upsertApp(store: Store, seed: AppSeed) {
  store.readCache.delete(appCacheKey)
  for (const environment of seed.environments)
    await store.query(
      `INSERT INTO apps (app_id, environment, name, client_secret, allowed_origins, settings, secrets)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb)
       ON CONFLICT (app_id, environment) DO UPDATE SET name = EXCLUDED.name, client_secret = EXCLUDED.client_secret,
         allowed_origins = EXCLUDED.allowed_origins, settings = EXCLUDED.settings, secrets = EXCLUDED.secrets, updated_at = now()`,
      [
        seed.appId,
        environment,
        seed.name,
        seed.clientSecret,
        JSON.stringify(seed.allowedOrigins),
        JSON.stringify(seed.settings),
        JSON.stringify(seed.secrets ?? {}),
      ],
    )
}

// Every API request looks its app up; a second of staleness spares the database that query
// under load, and an edit to the apps table still shows within a second.
const appCacheKey = 'apps'
const appCacheMs = 1000
type AppCache = Map<string, { app: App | undefined; until: number }>

export async function findApp(store: Store, appId: string, environment: Environment): Promise<App | undefined> {
  let cache = store.readCache.get(appCacheKey) as AppCache | undefined
  if (!cache) {
    cache = new Map()
    store.readCache.set(appCacheKey, cache)
  }
  const key = `${appId}\u0000${environment}`
  const hit = cache.get(key)
  if (hit && hit.until > Date.now()) return hit.app
  const { rows } = await store.query<AppRow>('SELECT * FROM apps WHERE app_id = $1 AND environment = $2', [appId, environment])
  const app = rows[0] && toApp(rows[0])
  if (cache.size > 1000) cache.clear()
  cache.set(key, { app, until: Date.now() + appCacheMs })
  return app
}

/** Every environment of one app (the widget page may be framed before the environment is known). */
export async function findAppAnyEnvironment(store: Store, appId: string): Promise<App[]> {
  const { rows } = await store.query<AppRow>('SELECT * FROM apps WHERE app_id = $1 ORDER BY environment', [appId])
  return rows.map(toApp)
}

/** All allowed-origin patterns of all apps: a CORS preflight carries no x-app-id to narrow it down. */
export async function allAllowedOrigins(store: Store): Promise<string[]> {
  const { rows } = await store.query<{ allowed_origins: string[] }>('SELECT allowed_origins FROM apps')
  return [...new Set(rows.flatMap((row) => row.allowed_origins))]
}

/** The apps (any environment) whose Google or Apple sign-in uses this client id. */
export async function findAppsByOauthClient(store: Store, provider: 'google' | 'apple', clientId: string): Promise<App[]> {
  const { rows } = await store.query<AppRow>("SELECT * FROM apps WHERE settings -> $1 ->> 'clientId' = $2", [provider, clientId])
  return rows.map(toApp)
}

/** The apps (any environment) whose Telegram login uses this bot id. */
export async function findAppsByTelegramBot(store: Store, botId: string): Promise<App[]> {
  const { rows } = await store.query<AppRow>("SELECT * FROM apps WHERE settings -> 'telegram' ->> 'botId' = $1", [botId])
  return rows.map(toApp)
}

/** The app whose ramp client (RSA-signed requests) has this id. */
export const findAppByRampClientId = (store: Store, clientId: string) => appWhere(store, "secrets ->> 'rampClientId' = $1", clientId)

/** The app whose publishable ramp client secret this is (the development environment first, where both have it). */
export const findAppByRampClientSecret = (store: Store, secret: string) => appWhere(store, "settings ->> 'rampableClientSecret' = $1", secret)

async function appWhere(store: Store, condition: string, value: string): Promise<App | undefined> {
  const { rows } = await store.query<{ app_id: string; environment: Environment }>(
    `SELECT app_id, environment FROM apps WHERE ${condition} ORDER BY environment LIMIT 1`,
    [value],
  )
  const row = rows[0]
  if (!row) return undefined
  return findApp(store, row.app_id, row.environment)
}
