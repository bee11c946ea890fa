import type { AppConfig } from '../sdk/app-config.ts'
import type { FrameParams } from './params.ts'
import { appConfigStaleMs, type SessionStore } from './session.ts'

type App = Pick<FrameParams, 'appId' | 'env'>

/**
 * The app config, fetched at most once an hour per app and environment: a reload within the hour
 * reads the stored copy. On a first load the network was asked at once (`fetched`); should that
 * fail, a stored copy still serves.
 */
export async function readConfig(deps: {
  store: SessionStore
  persistent: boolean
  fetched: Promise<AppConfig> | undefined
  fetch: () => Promise<AppConfig>
  params: App
}): Promise<AppConfig> {
  const { store, fetched } = deps
  const stored = () => store.loadAppConfig().catch(() => undefined) as Promise<AppConfig | undefined>
  let config: AppConfig | undefined
  try {
    config = fetched ? await fetched : await stored()
  } catch (error) {
    config = await stored()
    if (!config) throw error
    return config
  }
  if (config && !fetched) return config
  config ??= await deps.fetch()
  try {
    await store.saveAppConfig(config)
    // A copy in memory dies with the page: no mark, so the next load asks the network at once.
    if (deps.persistent) markConfigStored(deps.params)
  } catch {}
  return config
}

/**
 * A mark beside the stored app config, in this origin's localStorage (read at once, where the
 * stored copy in IndexedDB answers only after the probe), saying when it was stored. With a fresh
 * mark the frame waits for the stored copy rather than ask the network, so the config is still
 * fetched at most once an hour. No mark, or no localStorage (third-party storage blocked): the
 * network is asked at once.
 */
const markKey = ({ appId, env }: App) => `wallet-kit:appConfig:${appId}:${env}`

export function configStoredRecently(params: App): boolean {
  try {
    const age = Date.now() - Number(localStorage.getItem(markKey(params)))
    return age >= 0 && age < appConfigStaleMs
  } catch {
    return false
  }
}

function markConfigStored(params: App): void {
  try {
    localStorage.setItem(markKey(params), String(Date.now()))
  } catch {}
}
