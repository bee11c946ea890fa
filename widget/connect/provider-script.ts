/** A provider's sign-in script that app config does not name, or that could not load, or that loaded without its API. */
export class SignInUnavailable extends Error {
  override name = 'SignInUnavailable'
}

/** The provider could not open its sign-in window (a popup blocker). */
export class PopupBlocked extends Error {
  override name = 'PopupBlocked'
}

/** How long a sign-in script may take to load before the button says it could not (not a spinner for ever). */
export const scriptTimeoutMs = 15_000

/** Loads in flight, by URL: a second click while one loads waits for the same script. */
const loading = new Map<string, Promise<void>>()

/**
 * Loads a provider's sign-in script (Google's, Apple's, Telegram's JavaScript API) when a sign-in needs it, never before, and
 * only from `url`: the one app config names, as signInScriptUrl (sdk/sign-in-scripts.ts) let it through; without one, nothing is requested. When the script's API is already on
 * the page nothing loads again; a failed load leaves nothing behind, so the next click tries again.
 * Resolves with the script's API, as `api()` finds it.
 */
export async function loadProviderScript<T>(url: string | null, api: () => T | undefined): Promise<T> {
  if (!url) throw new SignInUnavailable('App config names no usable sign-in script')
  const present = api()
  if (present) return present
  let load = loading.get(url)
  if (!load) {
    load = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script')
      const settle = () => {
        clearTimeout(timer)
        loading.delete(url)
      }
      const fail = (why: string) => {
        settle()
        script.remove()
        reject(new SignInUnavailable(`The sign-in script ${url} ${why}`))
      }
      const timer = setTimeout(() => fail(`did not load in ${scriptTimeoutMs / 1000} s`), scriptTimeoutMs)
      script.onload = () => {
        settle()
        resolve()
      }
      script.onerror = () => fail('could not load')
      script.src = url
      script.async = true
      document.head.append(script)
    })
    loading.set(url, load)
  }
  await load
  const found = api()
  if (!found) throw new SignInUnavailable(`The sign-in script ${url} loaded without its API`)
  return found
}
