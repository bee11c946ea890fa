import { expect, test } from '@playwright/test'
import { signUp, startRequest } from './flows.ts'
import { frameOf, providerUrl } from './helpers.ts'

/**
 * Our edge: tokens, the session and the recovery secret stay in the provider's frame. This
 * records every message the host page receives (window messages and the MessagePort the bridge
 * runs on) through a login, a signature and a reload, then looks for the real secrets in it.
 */
const recorder = () => {
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
  MessagePort.prototype.addEventListener = function (this: MessagePort, type: string, fn: EventListenerOrEventListenerObject, o?: boolean | AddEventListenerOptions) {
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
      onmessage.set!.call(this, fn && ((e: MessageEvent) => (record('port', e.data), fn.call(this, e))))
    },
  })
}

test('no token, refresh token or recovery secret ever reaches the host page', async ({ page, request }) => {
  await page.addInitScript(recorder)
  let secret0 = ''
  page.on('response', async (r) => {
    if (r.url() === `${providerUrl}/api/v2/account/create`) secret0 = ((await r.json()) as { data: { secret0: string } }).data.secret0
  })
  const address = await signUp(page, request)
  const frame = frameOf(page)
  const signing = startRequest(page, 'personal_sign', ['0x6869', address])
  await frame.getByRole('button', { name: 'Confirm' }).click()
  expect((await signing).result).toMatch(/^0x/)

  // The session as the frame keeps it (IndexedDB on the provider origin).
  const widget = page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
  const session = await widget.evaluate(
    () =>
      new Promise<{ token: string; refreshToken: string }>((resolve, reject) => {
        const open = indexedDB.open('wallet-kit')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const get = open.result.transaction('state').objectStore('state').get('session:demo:production')
          get.onsuccess = () => resolve(get.result)
        }
      }),
  )
  expect(session.token).toMatch(/^eyJ/)
  expect(secret0.length).toBeGreaterThan(16)

  const log = await page.evaluate(() => (window as unknown as { bridgeLog: string[] }).bridgeLog)
  expect(log.length).toBeGreaterThan(10)
  expect(log.some((m) => m.includes(address))).toBe(true) // the recorder did see the bridge traffic
  for (const secret of [session.token, session.refreshToken, secret0]) expect(log.filter((m) => m.includes(secret))).toEqual([])
  expect(log.filter((m) => /eyJ[\w-]{10,}\.[\w-]{10,}/.test(m))).toEqual([]) // no JWT of any kind

  // Nor does the host's own storage hold anything of the session.
  const hostStorage = await page.evaluate(() => JSON.stringify({ cookie: document.cookie, local: { ...localStorage }, session: { ...sessionStorage } }))
  for (const secret of [session.token, session.refreshToken, secret0]) expect(hostStorage).not.toContain(secret)
})
