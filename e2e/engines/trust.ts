import type { Engine } from './engine.ts'
import { frameElement, until, urls } from './flows.ts'
import { shortly } from './locate.ts'

/**
 * What the engine tests of the trust flows (recovery, identity token, step-up) share: a host page
 * whose kit is made after a recorder of everything the page receives, the frame's stored session as
 * only a test can read it, and the dev inbox's codes counted, so a new code is never mistaken for
 * an older one.
 */

/**
 * Records every message the host page receives (window messages, and the MessagePort the bridge
 * runs on) into `window.bridgeLog`, then replaces the page's kit by a new one for `appId`
 * (production): its bridge is built after the recorder, so none of its traffic escapes it. Sent as
 * text: the page must not depend on helpers the test compiler adds to a function's source.
 */
const recordThenCreate = `const [appId] = args
const log = []
window.bridgeLog = log
const record = (kind, data) => {
  try {
    log.push(kind + ' ' + JSON.stringify(data))
  } catch {
    log.push(kind + ' [not serialisable]')
  }
}
window.addEventListener('message', (e) => record('window', e.data), true)
const add = MessagePort.prototype.addEventListener
MessagePort.prototype.addEventListener = function (type, fn, options) {
  if (type !== 'message') return add.call(this, type, fn, options)
  const port = this
  const wrapped = (e) => {
    record('port', e.data)
    return typeof fn === 'function' ? fn.call(port, e) : fn.handleEvent(e)
  }
  return add.call(this, type, wrapped, options)
}
const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')
Object.defineProperty(MessagePort.prototype, 'onmessage', {
  configurable: true,
  get() {
    return onmessage.get.call(this)
  },
  set(fn) {
    const port = this
    onmessage.set.call(this, fn && ((e) => {
      record('port', e.data)
      return fn.call(port, e)
    }))
  },
})
window.WalletKit.kit.destroy()
window.WalletKit.createWalletKit({ appId, env: 'production' })
await window.WalletKit.kit.provider.request({ method: 'eth_chainId' })
return log.length`

/** Opens the demo page with a recorded kit of `appId` whose bridge is up (see recordThenCreate). */
export async function recordedKit(engine: Engine, appId: string): Promise<void> {
  await engine.goto(`${urls().demoOrigin}/demo/`)
  const recorded = await engine.run<number>('page', recordThenCreate, appId)
  // The handshake's own messages: the recorder hears the bridge.
  if (!(recorded > 0)) throw new Error(`the recorder heard nothing of the new kit's handshake (${recorded})`)
}

/** What the recorder heard so far, one JSON line per message. */
export const hostLog = (engine: Engine) => engine.run<string[]>('page', 'return window.bridgeLog')

export type StoredSession = { token: string; refreshToken: string }

/** The session the wallet frame keeps for `appId` (production), read from its IndexedDB: a test may look; the page never can. */
export const storedSession = (engine: Engine, appId = 'demo') =>
  engine.run<StoredSession | null>(
    'frame',
    `const [key] = args
    return new Promise((resolve, reject) => {
      const open = indexedDB.open('wallet-kit')
      open.onerror = () => reject(open.error)
      open.onsuccess = () => {
        const get = open.result.transaction('state').objectStore('state').get(key)
        get.onsuccess = () => resolve(get.result ? { token: get.result.token, refreshToken: get.result.refreshToken } : null)
        get.onerror = () => reject(get.error)
      }
    })`,
    `session:${appId}:production`,
  )

/** The codes the dev inbox holds for `to`, newest first. */
export async function inboxCodes(to: string): Promise<string[]> {
  const res = await fetch(`${urls().providerUrl}/dev/api/inbox?to=${encodeURIComponent(to)}`)
  return ((await res.json()) as { code: string }[]).map((m) => m.code)
}

/** The newest code for `to` once the inbox holds more than `seen` messages. */
export async function nextCode(to: string, seen: number): Promise<string> {
  const codes = await until(
    () => inboxCodes(to),
    (list) => list.length > seen && /^\d{6}$/.test(list[0] ?? ''),
    `a new code for ${to} (after ${seen})`,
  )
  return codes[0]!
}

/** Asks the page's kit for an identity token: the answer, or the error's code and message. */
export const askIdentityToken = (engine: Engine, options?: { nonce: string }) =>
  engine.run<{ result?: { identityToken: string; expiresAt: string }; code?: number; message?: string }>(
    'page',
    `const [options] = args
    return window.WalletKit.kit.getIdentityToken(options ?? undefined).then(
      (result) => ({ result }),
      (e) => ({ code: e.code, message: e.message }),
    )`,
    options ?? null,
  )

/** Where `selector` is in the frame, and where the frame is in the page (null while either is missing). */
const placeOf = async (engine: Engine, selector: string) => {
  const inFrame = await engine.run<number[] | null>(
    'frame',
    `const el = document.querySelector(args[0]); if (!el) return null; const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]`,
    selector,
  )
  const frame = await engine.run<number[]>(
    'page',
    `const r = document.querySelector(args[0]).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]`,
    frameElement,
  )
  return inFrame && JSON.stringify([inFrame, frame])
}

/**
 * Waits until `selector` in the frame has stopped moving (the same place, frame included, twice
 * 150 ms apart): a modal that has just opened is still being placed, and a pointer aimed at one
 * field then may land on the row above it, as no person's would.
 */
export async function steady(engine: Engine, selector: string): Promise<void> {
  await engine.waitFor('frame', selector)
  let last: string | null = null
  await until(
    async () => {
      const before = last
      await shortly(150)
      last = await placeOf(engine, selector)
      return last !== null && last === before
    },
    (same) => same,
    `${selector} stops moving in the frame`,
  )
}
