import type { Context } from 'hono'

// The sandbox's stand-ins of the providers' sign-in scripts (Google Identity Services, Sign in with
// Apple JS, the Telegram login widget): the same global objects and calls, driving the emulators
// instead of the providers, so the widget runs one code path against both. Each stand-in is a typed
// function here, served as the source of a classic script that calls it with the page's window and
// the <script> element that loaded it (whose origin is the emulator's).

export type PopupMessage = Record<string, unknown>

/**
 * Waits for a sign-in popup's answer: the first message whose source is `popup`, whose origin is
 * `origin` and that `accept` takes; anything else (another window, another origin, another state)
 * is ignored. `done(null)` when the popup closes first, after a moment for a last message in flight
 * (the popup posts and closes at once; the two travel apart between processes).
 */
export function awaitPopup(win: Window, popup: Window, origin: string, accept: (m: PopupMessage) => boolean, done: (m: PopupMessage | null) => void): void {
  let grace: ReturnType<typeof setTimeout> | undefined
  const onMessage = (e: MessageEvent) => {
    if (e.source !== popup || e.origin !== origin || typeof e.data !== 'object' || e.data === null || !accept(e.data as PopupMessage)) return
    finish(e.data as PopupMessage)
  }
  const watch = setInterval(() => {
    if (popup.closed && grace === undefined) grace = setTimeout(() => finish(null), 1000)
  }, 400)
  const finish = (m: PopupMessage | null) => {
    clearInterval(watch)
    clearTimeout(grace)
    win.removeEventListener('message', onMessage)
    done(m)
  }
  win.addEventListener('message', onMessage)
}

/** 16 random bytes as hex: popup names (no other page can find the popup by name) and the opener's own states. */
export function randomHex(win: Window): string {
  return Array.from(win.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
}

export type Helpers = { awaitPopup: typeof awaitPopup; randomHex: typeof randomHex }
export type StandIn = (win: Window, script: HTMLScriptElement, helpers: Helpers) => void

/**
 * The script text of a stand-in. The functions are compiled from TypeScript; the compiler may wrap
 * inner functions in `__name(fn, "name")` (keepNames), so the script defines it as the identity.
 */
export function standInSource(install: StandIn): string {
  return `(function(){"use strict";var __name=function(f){return f};var helpers={awaitPopup:${awaitPopup},randomHex:${randomHex}};(${install})(window,document.currentScript,helpers)})();\n`
}

/** A stand-in as a script response: JavaScript, never cached stale (it changes with the sandbox). */
export function serveStandIn(c: Context, source: string) {
  return c.body(source, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' })
}
