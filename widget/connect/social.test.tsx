// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { AppConfig } from '../../sdk/index.ts'
import { providerScriptUrls, standInScriptPaths } from '../../sdk/sign-in-scripts.ts'
import { scriptTimeoutMs } from './provider-script.ts'
import { SocialButtons } from './SocialButtons.tsx'
import { connectConfig, renderConnect } from './connect.fixture.tsx'

// The social sign-ins through the providers' own scripts, loaded on demand, with the scripts
// played here: which script is loaded and when, what the widget does with each provider's answer,
// and the answers it must refuse.

// The providers' own URLs, exactly (sdk/sign-in-scripts.ts); nothing else is loaded.
const scripts = providerScriptUrls
const config = (overrides: Partial<AppConfig> = {}) =>
  connectConfig({
    google: { enabled: true, clientId: 'g-client', scriptUrl: scripts.google },
    apple: { enabled: true, clientId: 'a-client', redirectUri: 'https://wallet.example/cb', scriptUrl: scripts.apple },
    telegram: { enabled: true, botId: '7000', botUsername: 'the_bot', scriptUrl: scripts.telegram },
    ...overrides,
  })

/** <script> elements the widget appends, held instead of fetched; `load(i)` runs one as if it arrived. */
let appended: HTMLScriptElement[]
type Globals = { google?: unknown; AppleID?: unknown; Telegram?: unknown }
beforeEach(() => {
  appended = []
  vi.spyOn(document.head, 'append').mockImplementation((...nodes) => void appended.push(...(nodes as HTMLScriptElement[])))
})
afterEach(() => {
  // A script a test left loading fails now, as a held request would: the next test loads afresh.
  for (const script of appended) script.onerror?.(new Event('error'))
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
  for (const key of ['google', 'AppleID', 'Telegram'] as const) delete (window as Globals)[key]
})

const loaded = (index: number, globals: Globals) =>
  act(async () => {
    Object.assign(window, globals)
    appended[index]!.onload?.(new Event('load'))
  })
/** Lets the lazily imported sign-in code arrive and run up to its next wait. */
const settle = () =>
  act(async () => {
    await vi.dynamicImportSettled()
    await new Promise((r) => setTimeout(r, 0))
  })
const button = (name: string) => screen.getByRole('button', { name: `Continue with ${name}` }) as HTMLButtonElement
const errorLine = () =>
  screen
    .getAllByRole('alert')
    .map((a) => a.textContent)
    .join('')

function client() {
  return {
    auth: {
      googleCode: vi.fn(async () => ({ isWalletCreated: false })),
      apple: vi.fn(async () => ({ isWalletCreated: false })),
      telegram: vi.fn(async () => ({ isWalletCreated: false })),
    },
  }
}

/** A JWT-shaped token whose payload carries `nonce` (the widget reads it; the service verifies the signature). */
const idToken = (nonce: string) => `h.${btoa(JSON.stringify({ nonce })).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`

test('no provider script is loaded when the home shows; a click loads exactly the one app config names', async () => {
  await renderConnect(<SocialButtons />, { client: client(), config: config() })
  await settle()
  expect(appended).toEqual([])
  fireEvent.click(button('Google'))
  await settle()
  expect(appended.map((s) => s.src)).toEqual([scripts.google])
})

test.each([
  // Any https URL would run its code on the provider origin, with every app's sessions in reach.
  ['https but not the provider', 'https://evil.example/gsi/client'],
  ["the provider's origin on another path", 'https://accounts.google.com/gsi/other'],
  ["the provider's URL with a query", 'https://accounts.google.com/gsi/client?v=2'],
  ['a look-alike host', 'https://accounts.google.com.evil.example/gsi/client'],
  ["another provider's script", 'https://telegram.org/js/telegram-widget.js'],
  ['a stand-in on another origin', `https://evil.example${standInScriptPaths.google}`],
  ["another provider's stand-in on this origin", `${location.origin}${standInScriptPaths.apple}`],
  ['not https', 'http://evil.example/gsi/client'],
  ['a javascript: URL', 'javascript:alert(1)'],
  ['a data: URL', 'data:text/javascript,alert(1)'],
  ['missing', null],
])('a script URL that is %s is never loaded, and the button says sign-in could not load', async (_, scriptUrl) => {
  const c = client()
  await renderConnect(<SocialButtons />, { client: c, config: config({ google: { enabled: true, clientId: 'g', scriptUrl } }) })
  fireEvent.click(button('Google'))
  await settle()
  expect(appended).toEqual([])
  expect(errorLine()).toBe('Google sign-in could not load. Check your connection and try again.')
  expect(button('Google').disabled).toBe(false)
})

test("the sandbox's stand-in on the frame's own origin is loaded", async () => {
  const standIn = `${location.origin}${standInScriptPaths.telegram}`
  await renderConnect(<SocialButtons />, {
    client: client(),
    config: config({ telegram: { enabled: true, botId: '7', botUsername: 'b', scriptUrl: standIn } }),
  })
  fireEvent.click(button('Telegram'))
  await settle()
  expect(appended.map((s) => s.src)).toEqual([standIn])
})

test('a script that fails to load, or never answers, gives a clear error line, not a hang; the next click tries again', async () => {
  vi.useFakeTimers()
  await renderConnect(<SocialButtons />, { client: client(), config: config() })
  fireEvent.click(button('Apple'))
  await act(() => vi.advanceTimersByTimeAsync(0))
  await act(async () => appended[0]!.onerror?.(new Event('error')))
  expect(errorLine()).toBe('Apple sign-in could not load. Check your connection and try again.')
  fireEvent.click(button('Apple'))
  await act(() => vi.advanceTimersByTimeAsync(0))
  expect(appended).toHaveLength(2)
  await act(() => vi.advanceTimersByTimeAsync(scriptTimeoutMs))
  expect(errorLine()).toBe('Apple sign-in could not load. Check your connection and try again.')
  expect(button('Apple').disabled).toBe(false)
})

test('Google: the code client is asked for a code with a fresh state; the code goes to the wallet service', async () => {
  const c = client()
  let asked: { client_id: string; state: string; ux_mode: string; callback: (r: object) => void } | undefined
  await renderConnect(<SocialButtons />, { client: c, config: config() })
  fireEvent.click(button('Google'))
  await settle()
  const initCodeClient = (options: typeof asked) => ({ requestCode: () => (asked = options) })
  await loaded(0, { google: { accounts: { oauth2: { initCodeClient } } } })
  expect(asked).toMatchObject({ client_id: 'g-client', ux_mode: 'popup', state: expect.stringMatching(/^[0-9a-f]{32}$/) })
  await act(async () => asked!.callback({ code: 'the-code', state: asked!.state }))
  expect(c.auth.googleCode).toHaveBeenCalledWith({ code: 'the-code' })
})

test('Google: an answer with another state (forged, or for another sign-in) is refused', async () => {
  const c = client()
  let asked: { state: string; callback: (r: object) => void } | undefined
  await renderConnect(<SocialButtons />, { client: c, config: config() })
  fireEvent.click(button('Google'))
  await settle()
  await loaded(0, { google: { accounts: { oauth2: { initCodeClient: (o: typeof asked) => ({ requestCode: () => (asked = o) }) } } } })
  await act(async () => asked!.callback({ code: 'forged', state: 'not-ours' }))
  expect(c.auth.googleCode).not.toHaveBeenCalled()
  expect(errorLine()).toBe('Something went wrong')
})

test('Google: a popup the browser blocked says so', async () => {
  await renderConnect(<SocialButtons />, { client: client(), config: config() })
  fireEvent.click(button('Google'))
  await settle()
  const initCodeClient = (o: { error_callback: (e: object) => void }) => ({ requestCode: () => o.error_callback({ type: 'popup_failed_to_open' }) })
  await loaded(0, { google: { accounts: { oauth2: { initCodeClient } } } })
  expect(errorLine()).toBe('The sign-in window was blocked. Allow pop-ups for this site and try again.')
})

test.each([
  ['both match: the identity token goes to the service', null],
  ['another state is refused', 'state'],
  ['another nonce in the identity token is refused', 'nonce'],
] as const)('Apple: init with state, nonce and popup mode; %s', async (_, forge) => {
  const c = client()
  let init: { state: string; nonce: string; usePopup: boolean; redirectURI: string; clientId: string } | undefined
  await renderConnect(<SocialButtons />, { client: c, config: config() })
  fireEvent.click(button('Apple'))
  await settle()
  const signIn = async () => ({
    authorization: { code: 'c', state: forge === 'state' ? 'other' : init!.state, id_token: idToken(forge === 'nonce' ? 'other' : init!.nonce) },
  })
  await loaded(0, { AppleID: { auth: { init: (o: typeof init) => (init = o), signIn } } })
  await settle()
  expect(init).toMatchObject({ clientId: 'a-client', redirectURI: 'https://wallet.example/cb', usePopup: true })
  if (forge) {
    expect(c.auth.apple).not.toHaveBeenCalled()
    expect(errorLine()).toBe('Something went wrong')
  } else expect(c.auth.apple).toHaveBeenCalledWith({ credential: idToken(init!.nonce) })
})

test("Telegram: Telegram.Login.auth with the app's bot; the data goes to the service with botUsername", async () => {
  const c = client()
  let options: unknown
  await renderConnect(<SocialButtons />, { client: c, config: config() })
  fireEvent.click(button('Telegram'))
  await settle()
  const user = { id: 42, first_name: 'Tess', auth_date: 1700000000, hash: 'ab'.repeat(32) }
  const auth = (o: unknown, callback: (u: object) => void) => {
    options = o
    callback(user)
  }
  await loaded(0, { Telegram: { Login: { auth } } })
  expect(options).toEqual({ bot_id: '7000', request_access: 'write' })
  expect(c.auth.telegram).toHaveBeenCalledWith({ ...user, botUsername: 'the_bot' })
})

test('Telegram: a cancelled login (false) signs nobody in', async () => {
  const c = client()
  await renderConnect(<SocialButtons />, { client: c, config: config() })
  fireEvent.click(button('Telegram'))
  await settle()
  await loaded(0, { Telegram: { Login: { auth: (_: unknown, callback: (u: false) => void) => callback(false) } } })
  expect(c.auth.telegram).not.toHaveBeenCalled()
  expect(errorLine()).toBe('Something went wrong')
})
