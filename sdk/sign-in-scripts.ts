// The one rule for which sign-in scripts may run in the wallet frame (each loaded on demand). A script
// loaded there runs with the provider origin's rights: it can read every app's sessions kept on that
// origin. So an app's settings may not name just any https URL: each provider's script comes from
// exactly its provider's published URL, or from the sandbox's stand-in of it on the provider origin
// itself. The sandbox checks app settings with this (seed and app config answer), the widget checks
// again before it loads anything, and the frame's Content-Security-Policy is built from the same table.
// No Subresource Integrity: Google's and Apple's scripts change without notice under the same URL.

export type SignInScriptProvider = 'google' | 'apple' | 'telegram'

/** Each provider's own script, exactly: no other path, query or fragment. */
export const providerScriptUrls: Readonly<Record<SignInScriptProvider, string>> = {
  google: 'https://accounts.google.com/gsi/client',
  apple: 'https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js',
  telegram: 'https://telegram.org/js/telegram-widget.js',
}

/** Where the sandbox serves its stand-in of each script, on the provider origin (the widget's own). */
export const standInScriptPaths: Readonly<Record<SignInScriptProvider, string>> = {
  google: '/oauth/google/gsi/client',
  apple: '/oauth/apple/appleid.auth.js',
  telegram: '/telegram/telegram-widget.js',
}

/**
 * What else the frame must reach for a provider's script to work, as CSP sources: Google Identity
 * Services' code client talks to and frames pages under https://accounts.google.com/gsi/; the
 * Telegram widget, when its popup closes without a message, asks https://oauth.telegram.org/auth/get
 * for the result. Their popups, and Apple's, are navigations, which the frame's CSP does not govern.
 */
export const providerScriptNeeds: Readonly<Record<SignInScriptProvider, { connect: readonly string[]; frame: readonly string[] }>> = {
  google: { connect: ['https://accounts.google.com/gsi/'], frame: ['https://accounts.google.com/gsi/'] },
  apple: { connect: [], frame: [] },
  telegram: { connect: ['https://oauth.telegram.org/auth/get'], frame: [] },
}

/** The URLs `provider`'s script may be loaded from, for a frame on `providerOrigin` (e.g. 'https://wallet.example'). */
export function allowedSignInScripts(provider: SignInScriptProvider, providerOrigin: string): string[] {
  return [providerScriptUrls[provider], `${providerOrigin}${standInScriptPaths[provider]}`]
}

/** `url` when it is one `provider`'s script may be loaded from (compared exactly, character for character), else null. */
export function allowedSignInScript(provider: SignInScriptProvider, url: unknown, providerOrigin: string): string | null {
  return typeof url === 'string' && allowedSignInScripts(provider, providerOrigin).includes(url) ? url : null
}

/**
 * Why an app setting's script URL is refused, or undefined when it is allowed (or null: no script).
 * A setting may name the stand-in by its path, since the provider origin is known only at run time.
 */
export function checkSignInScriptSetting(provider: SignInScriptProvider, url: unknown): string | undefined {
  if (url === undefined || url === null) return undefined
  if (url === providerScriptUrls[provider] || url === standInScriptPaths[provider]) return undefined
  return `${provider}.scriptUrl must be ${providerScriptUrls[provider]} or the sandbox's stand-in ${standInScriptPaths[provider]}, not ${JSON.stringify(url)}`
}

/**
 * The sign-in script of `provider` that app config names, when it is one a frame on `providerOrigin`
 * may load (the provider's own URL or the stand-in on that origin, exactly). Null otherwise: nothing
 * else is loaded.
 */
export function signInScriptUrl(
  config: Record<SignInScriptProvider, { scriptUrl?: string | null | undefined }>,
  provider: SignInScriptProvider,
  providerOrigin: string,
): string | null {
  return allowedSignInScript(provider, config[provider].scriptUrl, providerOrigin)
}
