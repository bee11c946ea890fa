import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { providerScriptUrls } from '../../../sdk/sign-in-scripts.ts'
import { testAppSettings } from '../../sandbox.fixture.ts'
import { appConfig, readSeed, type App, type AppSeed } from './apps.ts'

// An app's settings name the sign-in scripts the wallet frame loads (each provider's own, on demand). The frame
// runs them on the provider origin, where every app's sessions live: an app owner may choose the
// provider's script or the sandbox's stand-in, never a script of their own.

const origin = 'http://localhost:8787'
const settingsWith = (scriptUrl: string | null) =>
  testAppSettings({
    google: { enabled: true, clientId: 'g', scriptUrl },
    apple: { enabled: true, clientId: 'a', redirectUri: null, scriptUrl },
    telegram: { enabled: true, botId: '7', botUsername: 'b', scriptUrl },
  })
const appWith = (scriptUrl: string | null): App => ({
  appId: 'scripts',
  environment: 'development',
  name: 'Scripts',
  clientSecret: null,
  allowedOrigins: ['http://localhost:*'],
  settings: settingsWith(scriptUrl),
  secrets: {},
})
const scriptsOf = (scriptUrl: string | null) => {
  const config = appConfig(appWith(scriptUrl), [], origin)
  return [config.google.scriptUrl, config.apple.scriptUrl, config.telegram.scriptUrl]
}

describe("the sign-in scripts an app's settings may name", () => {
  test('a script of any other https URL (an edit straight into the database) is never handed to the frame', () => {
    expect(scriptsOf('https://cdn.attacker.example/steal.js')).toEqual([null, null, null])
    expect(scriptsOf(`${providerScriptUrls.google}?v=2`)).toEqual([null, null, null])
  })

  test("the provider's own URL goes to its provider only; the stand-in path is made absolute on the sandbox", () => {
    expect(scriptsOf(providerScriptUrls.google)).toEqual([providerScriptUrls.google, null, null])
    expect(scriptsOf('/oauth/google/gsi/client')).toEqual([`${origin}/oauth/google/gsi/client`, null, null])
    expect(scriptsOf('/telegram/telegram-widget.js')).toEqual([null, null, `${origin}/telegram/telegram-widget.js`])
    expect(scriptsOf(null)).toEqual([null, null, null])
  })

  test('a seed naming any other script does not start, and says which setting and what is allowed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seed-'))
    try {
      const seed: AppSeed = {
        appId: 'evil',
        name: 'Evil',
        environments: ['development'],
        clientSecret: null,
        allowedOrigins: ['http://localhost:*'],
        settings: { ...testAppSettings(), telegram: { enabled: true, botId: '7', botUsername: 'b', scriptUrl: 'https://cdn.attacker.example/t.js' } },
      }
      const path = join(dir, 'apps.json')
      writeFileSync(path, JSON.stringify([seed]))
      expect(() => readSeed(path)).toThrow(
        'App evil: telegram.scriptUrl must be https://telegram.org/js/telegram-widget.js or the sandbox\'s stand-in /telegram/telegram-widget.js, not "https://cdn.attacker.example/t.js"',
      )
      writeFileSync(path, JSON.stringify([{ ...seed, settings: settingsWith('/oauth/google/gsi/client') }]))
      expect(() => readSeed(path)).toThrow(/^App evil: apple\.scriptUrl must be/)
    } finally {
      rmSync(dir, { recursive: true })
    }
  })

  test("the seed file's apps all pass", () => {
    expect(readSeed().length).toBeGreaterThan(0)
  })
})
