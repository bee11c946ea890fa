import type { Page } from '@playwright/test'
import { providerUrl } from './helpers.ts'

/**
 * Records every message the host page receives (window messages and the MessagePort the bridge
 * runs on) into `window.bridgeLog`, from the page's first script on: pass it to
 * `page.addInitScript`, then read the log with `hostMessages`. The specs that prove no token, key or
 * recovery secret crosses the bridge look for the real secrets in it.
 */
export const recorder = () => {
  const log: string[] = []
  ;(window as unknown as { bridgeLog: string[] }).bridgeLog = log
  const record = (kind: string, data: unknown) => {
    try {
      log.push(`${kind} ${JSON.stringify(data)}`)
    } catch {
      log.push(`${kind} [not serialisable]`)
    }
  }
  window.addEventListener('message', (e) => record('window', e.data), true)
  const add = MessagePort.prototype.addEventListener
  MessagePort.prototype.addEventListener = function (
    this: MessagePort,
    type: string,
    fn: EventListenerOrEventListenerObject,
    o?: boolean | AddEventListenerOptions,
  ) {
    if (type !== 'message') return add.call(this, type, fn, o)
    const wrapped = (e: Event) => {
      record('port', (e as MessageEvent).data)
      return typeof fn === 'function' ? fn.call(this, e) : fn.handleEvent(e)
    }
    return add.call(this, type, wrapped, o)
  }
  const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')!
  Object.defineProperty(MessagePort.prototype, 'onmessage', {
    configurable: true,
    get() {
      return onmessage.get!.call(this)
    },
    set(fn: ((e: MessageEvent) => void) | null) {
      onmessage.set!.call(
        this,
        fn &&
          ((e: MessageEvent) => {
            record('port', e.data)
            return fn.call(this, e)
          }),
      )
    },
  })
}

/** What the recorder saw so far, one JSON line per message. */
export const hostMessages = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { bridgeLog: string[] }).bridgeLog)

/** The stored session, read inside the wallet frame (a test may look; the host page never can). */
export async function storedSession(page: Page): Promise<{ token: string; refreshToken: string }> {
  const widget = page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
  return widget.evaluate(
    () =>
      new Promise<{ token: string; refreshToken: string }>((resolve, reject) => {
        const open = indexedDB.open('wallet-kit')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const get = open.result.transaction('state').objectStore('state').get('session:demo:production')
          get.onsuccess = () => resolve(get.result)
          get.onerror = () => reject(get.error)
        }
      }),
  )
}
