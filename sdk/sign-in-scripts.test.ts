import { describe, expect, test } from 'vitest'
import { allowedSignInScript, checkSignInScriptSetting, providerScriptUrls, signInScriptUrl, standInScriptPaths } from './sign-in-scripts.ts'

const origin = 'https://wallet.example'
const config = (google: string | null | undefined) => ({
  google: { enabled: true, clientId: 'g', scriptUrl: google },
  apple: { enabled: false, clientId: null, redirectUri: null, scriptUrl: null },
  telegram: { enabled: false, botId: null, botUsername: null, scriptUrl: null },
})

describe('which sign-in scripts may run in the wallet frame', () => {
  test.each([
    ['google', 'https://accounts.google.com/gsi/client'],
    ['apple', 'https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js'],
    ['telegram', 'https://telegram.org/js/telegram-widget.js'],
  ] as const)("%s: its provider's own URL and its stand-in on the provider origin", (provider, url) => {
    expect(allowedSignInScript(provider, url, origin)).toBe(url)
    expect(allowedSignInScript(provider, `${origin}${standInScriptPaths[provider]}`, origin)).toBe(`${origin}${standInScriptPaths[provider]}`)
  })

  test.each([
    ['any other https URL', 'https://cdn.example/gsi/client'],
    ['the right host, another path', 'https://accounts.google.com/gsi/client/../other'],
    ['a query', 'https://accounts.google.com/gsi/client?x=1'],
    ['a fragment', 'https://accounts.google.com/gsi/client#x'],
    ['user info', 'https://evil@accounts.google.com/gsi/client'],
    ['upper case', 'HTTPS://ACCOUNTS.GOOGLE.COM/gsi/client'],
    ['plain http', 'http://accounts.google.com/gsi/client'],
    ["Apple's script for Google", providerScriptUrls.apple],
    ['the stand-in on another origin', `https://other.example${standInScriptPaths.google}`],
    ['the stand-in path alone', standInScriptPaths.google],
    ['not a string', { toString: () => providerScriptUrls.google }],
  ])('refused: %s', (_, url) => {
    expect(allowedSignInScript('google', url, origin)).toBeNull()
    expect(signInScriptUrl(config(url as string), 'google', origin)).toBeNull()
  })

  test('app settings: the real URL, the stand-in path, or none; anything else is named in the refusal', () => {
    expect(checkSignInScriptSetting('google', providerScriptUrls.google)).toBeUndefined()
    expect(checkSignInScriptSetting('google', standInScriptPaths.google)).toBeUndefined()
    expect(checkSignInScriptSetting('google', null)).toBeUndefined()
    expect(checkSignInScriptSetting('google', 'https://cdn.example/x.js')).toBe(
      `google.scriptUrl must be https://accounts.google.com/gsi/client or the sandbox's stand-in /oauth/google/gsi/client, not "https://cdn.example/x.js"`,
    )
    expect(checkSignInScriptSetting('telegram', standInScriptPaths.google)).toMatch(/^telegram\.scriptUrl must be/)
  })
})
