import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { installTelegram, type TelegramGlobal } from '../telegram/widget-script.ts'
import { type AppleGlobal, type GoogleGlobal, installApple, installGoogle } from './provider-scripts.ts'
import { awaitPopup, randomHex, type StandIn, standInSource } from './stand-in-script.ts'

// The stand-ins of the providers' sign-in scripts, on a scripted window: the popups they open, the
// answers they take, and the ones they must ignore (another window, another origin, another state).

const emulator = 'http://localhost:8787'
const page = 'http://localhost:8787'
const helpers = { awaitPopup, randomHex }

type Popup = { closed: boolean }
function scriptedWindow() {
  const listeners = new Set<(e: MessageEvent) => void>()
  const opened: { url: URL; popup: Popup }[] = []
  let blocked = false
  const win = {
    location: { origin: page },
    crypto: globalThis.crypto,
    open: (url: string) => {
      if (blocked) return null
      const popup = { closed: false }
      opened.push({ url: new URL(url), popup })
      return popup
    },
    addEventListener: (_: string, fn: (e: MessageEvent) => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: (e: MessageEvent) => void) => listeners.delete(fn),
  }
  const post = (data: unknown, origin: string, source: unknown) => {
    for (const fn of [...listeners]) fn({ data, origin, source } as MessageEvent)
  }
  return {
    win: win as unknown as Window & { google?: GoogleGlobal; AppleID?: AppleGlobal; Telegram?: TelegramGlobal },
    opened,
    post,
    listeners,
    block: () => (blocked = true),
  }
}
const script = (path: string) => ({ src: `${emulator}${path}` }) as HTMLScriptElement

afterEach(() => vi.useRealTimers())

test.each([
  ['google', installGoogle, (w: Record<string, never>) => typeof (w.google as unknown as GoogleGlobal).accounts.oauth2.initCodeClient],
  ['AppleID', installApple, (w: Record<string, never>) => typeof (w.AppleID as unknown as AppleGlobal).auth.signIn],
  ['Telegram', installTelegram, (w: Record<string, never>) => typeof (w.Telegram as unknown as TelegramGlobal).Login.auth],
] as const)('the served script defines %s as the provider does, run as a browser runs it', (_, install, api) => {
  const win: Record<string, never> = {}
  runInNewContext(standInSource(install as StandIn), { window: win, document: { currentScript: script('/x.js') }, URL, URLSearchParams })
  expect(api(win)).toBe('function')
})

describe('google.accounts.oauth2 code client', () => {
  const start = (w: ReturnType<typeof scriptedWindow>) => {
    installGoogle(w.win, script('/oauth/google/gsi/client'), helpers)
    const callback = vi.fn()
    const errorCallback = vi.fn()
    w.win
      .google!.accounts.oauth2.initCodeClient({ client_id: 'g-client', scope: 'openid email', state: 's-1', callback, error_callback: errorCallback })
      .requestCode()
    return { callback, errorCallback }
  }

  test("opens the emulator's authorize page with the client, the state and its callback; takes only the popup's own answer", () => {
    const w = scriptedWindow()
    const { callback } = start(w)
    const { url, popup } = w.opened[0]!
    expect(`${url.origin}${url.pathname}`).toBe(`${emulator}/oauth/google/authorize`)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'g-client',
      state: 's-1',
      redirect_uri: `${emulator}/widget/oauth-callback.html`,
      response_type: 'code',
    })
    w.post({ provider: 'google', code: 'forged', state: 's-1' }, 'https://evil.example', popup)
    w.post({ provider: 'google', code: 'forged', state: 's-1' }, emulator, {})
    w.post({ provider: 'google', code: 'forged', state: 's-2' }, emulator, popup)
    expect(callback).not.toHaveBeenCalled()
    w.post({ provider: 'google', code: 'real', state: 's-1' }, emulator, popup)
    expect(callback).toHaveBeenCalledExactlyOnceWith({ code: 'real', state: 's-1', scope: 'openid email' })
    expect(w.listeners.size).toBe(0)
  })

  test('a blocked popup and a closed one go to error_callback, as Google names them', () => {
    vi.useFakeTimers()
    const blocked = scriptedWindow()
    blocked.block()
    expect(start(blocked).errorCallback).toHaveBeenCalledWith({ type: 'popup_failed_to_open', message: 'Failed to open popup window' })
    const closed = scriptedWindow()
    const { errorCallback, callback } = start(closed)
    closed.opened[0]!.popup.closed = true
    vi.advanceTimersByTime(1400)
    expect(errorCallback).toHaveBeenCalledWith({ type: 'popup_closed', message: 'Popup window closed' })
    expect(callback).not.toHaveBeenCalled()
  })
})

describe('AppleID.auth', () => {
  const init = { clientId: 'a-client', scope: 'name email', redirectURI: `${page}/widget/oauth-callback.html`, state: 'st', nonce: 'nn', usePopup: true }

  test('signIn resolves with the authorization the redirect page posts; forged answers are ignored', async () => {
    const w = scriptedWindow()
    installApple(w.win, script('/oauth/apple/appleid.auth.js'), helpers)
    w.win.AppleID!.auth.init(init)
    const answer = w.win.AppleID!.auth.signIn()
    const { url, popup } = w.opened[0]!
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ client_id: 'a-client', state: 'st', nonce: 'nn', response_mode: 'form_post' })
    w.post({ provider: 'apple', code: 'x', idToken: 'forged', state: 'st' }, 'https://evil.example', popup)
    w.post({ provider: 'apple', code: 'x', idToken: 'forged', state: 'other' }, page, popup)
    w.post({ provider: 'apple', code: 'c', idToken: 'id.to.ken', state: 'st' }, page, popup)
    expect(await answer).toEqual({ authorization: { code: 'c', id_token: 'id.to.ken', state: 'st' } })
  })

  test("a blocked or closed popup rejects with Apple's errors", async () => {
    vi.useFakeTimers()
    const blocked = scriptedWindow()
    blocked.block()
    installApple(blocked.win, script('/oauth/apple/appleid.auth.js'), helpers)
    blocked.win.AppleID!.auth.init(init)
    await expect(blocked.win.AppleID!.auth.signIn()).rejects.toEqual({ error: 'popup_blocked_by_browser' })
    const closed = scriptedWindow()
    installApple(closed.win, script('/oauth/apple/appleid.auth.js'), helpers)
    closed.win.AppleID!.auth.init(init)
    const answer = closed.win.AppleID!.auth.signIn()
    closed.opened[0]!.popup.closed = true
    vi.advanceTimersByTime(1400)
    await expect(answer).rejects.toEqual({ error: 'popup_closed_by_user' })
  })
})

describe('Telegram.Login.auth', () => {
  test("opens the login emulator for the bot and this page's origin; calls back with the popup's own signed data only", () => {
    const w = scriptedWindow()
    installTelegram(w.win, script('/telegram/telegram-widget.js'), helpers)
    const callback = vi.fn()
    w.win.Telegram!.Login.auth({ bot_id: '7000000001', request_access: 'write' }, callback)
    const { url, popup } = w.opened[0]!
    const state = url.searchParams.get('state')!
    expect(Object.fromEntries(url.searchParams)).toEqual({ bot_id: '7000000001', origin: page, state, request_access: 'write' })
    const result = { id: '1', hash: 'h', auth_date: '1' }
    w.post({ event: 'auth_result', provider: 'telegram', state, result: { ...result, id: '666' } }, 'https://evil.example', popup)
    w.post({ event: 'auth_result', provider: 'telegram', state: 'guessed', result: { ...result, id: '666' } }, emulator, popup)
    expect(callback).not.toHaveBeenCalled()
    w.post({ event: 'auth_result', provider: 'telegram', state, result }, emulator, popup)
    expect(callback).toHaveBeenCalledExactlyOnceWith(result)
  })

  test('a closed or blocked popup calls back with false', () => {
    vi.useFakeTimers()
    const w = scriptedWindow()
    installTelegram(w.win, script('/telegram/telegram-widget.js'), helpers)
    const callback = vi.fn()
    w.win.Telegram!.Login.auth({ bot_id: '1' }, callback)
    w.opened[0]!.popup.closed = true
    vi.advanceTimersByTime(1400)
    expect(callback).toHaveBeenCalledWith(false)
    w.block()
    w.win.Telegram!.Login.auth({ bot_id: '1' }, callback)
    expect(callback).toHaveBeenCalledTimes(2)
  })
})
