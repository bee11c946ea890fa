import { type AppConfig, appConfigElementId } from '../sdk/app-config.ts'
import { environmentHeader } from '../sdk/config.ts'
import type { FrameParams } from './params.ts'
import { appConfigStaleMs, type SessionStore } from './session.ts'

type App = Pick<FrameParams, 'appId' | 'env'>

/**
 * The app config, fetched at most once an hour per app and environment: a reload within the hour
 * reads the stored copy. On a first load the network was asked at once (`fetched`), beside the
 * storage probe. A fresh stored copy still serves as soon as it is read (its mark can be lost where
 * localStorage is blocked and IndexedDB is not), so a network that holds the request never holds
 * the frame; should the fetch fail, a stored copy serves too.
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
  const save = async (config: AppConfig) => {
    try {
      await store.saveAppConfig(config)
      // A copy in memory dies with the page: no mark, so the next load asks the network at once.
      if (deps.persistent) markConfigStored(deps.params)
    } catch {}
    return config
  }
  if (!fetched) return (await stored()) ?? save(await deps.fetch())
  const fromNetwork = fetched.then((config) => ({ config, network: true }))
  const fromStore = stored().then((config) => (config ? { config, network: false } : fromNetwork))
  let first: { config: AppConfig; network: boolean }
  try {
    first = await Promise.race([fromNetwork, fromStore])
  } catch (error) {
    const copy = await stored()
    if (!copy) throw error
    return copy
  }
  // Stored while the frame goes on, from a task of its own: the frame reads the session in the
  // steps that follow this answer, and a write queued before that read would hold it up (and with
  // it the first answer to the page).
  if (first.network) setTimeout(() => void save(first.config))
  return first.config
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

/**
 * The app config the provider's server wrote into the frame's page (sandbox/services/frame/routes.ts),
 * when it did and it is this app's and environment's: the frame's own document, never the host
 * page's word. A page served without one (a static deployment) asks the network as before.
 */
export function pageConfig({ appId, env }: App): AppConfig | undefined {
  try {
    const config = JSON.parse(document.getElementById(appConfigElementId)?.textContent ?? '') as AppConfig
    return config.appId === appId && config.environment === environmentHeader(env) ? config : undefined
  } catch {
    return undefined
  }
}
