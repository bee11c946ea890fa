import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, describe, expect, test } from 'vitest'
import { type ChannelLimits, createPopupChannels } from '../sandbox/services/popup/channel.ts'
import { popupChannelRoutes } from '../sandbox/services/popup/routes.ts'
import {
  type FrameMessage,
  type PopupMessage,
  type PopupPeer,
  type PopupSide,
  PopupChannelError,
  newPopupChannelId,
  openPopupChannel,
  popupChannelIdPattern,
} from './popup-channel.ts'

// The client against the sandbox's real /popup-channel route, over HTTP on 127.0.0.1 (Node only:
// the route serves the provider's own pages, and a test page in a browser is another origin).
const servers: Server[] = []
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))))

async function sandbox(limits: Partial<ChannelLimits> = {}) {
  const app = new Hono()
  app.route('/popup-channel', popupChannelRoutes({ channels: createPopupChannels({ waitMs: 2_000, ...limits }), ownOrigins: () => [] }))
  const server = createAdaptorServer({ fetch: app.fetch }) as Server
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const open = <S extends PopupSide>(id: string, side: S) => openPopupChannel(id, side, { origin, retryMs: 50 })
  return { origin, open }
}

/** Collects what one side reads until `until` holds (or 5 s pass). */
function reader<S extends PopupSide>(channel: ReturnType<typeof openPopupChannel<S>>, waitMs = 500) {
  const messages: unknown[] = []
  const peers: PopupPeer[] = []
  let ended = 0
  const stop = channel.listen({ message: (m) => messages.push(m), peer: (p) => peers.push(p), ended: () => ended++ }, waitMs)
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 250 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(done()).toBe(true)
  }
  return { messages, peers, stop, until, ended: () => ended }
}

describe('popup channel client, against the sandbox route', () => {
  test('a channel name is 32 random bytes in base64url: 43 characters, never the same twice', () => {
    const ids = Array.from({ length: 50 }, newPopupChannelId)
    for (const id of ids) expect(id).toMatch(popupChannelIdPattern)
    expect(new Set(ids).size).toBe(50)
  })

  test('each side reads what the other wrote, in order, typed; never its own', async () => {
    const { open } = await sandbox()
    const id = newPopupChannelId()
    const frame = open(id, 'frame')
    const popup = open(id, 'popup')
    const atPopup = reader(popup)
    const atFrame = reader(frame)
    await popup.post({ type: 'hello' })
    const sent: FrameMessage[] = [
      { type: 'open', purpose: 'confirm', hostOrigin: 'https://app.example' },
      { type: 'state', confirmation: { id: 1, kind: 'personal_sign' }, queued: 0 },
      { type: 'done' },
    ]
    for (const message of sent) await frame.post(message)
    await popup.post({ type: 'decision', id: 1, approve: true })
    await atPopup.until(() => atPopup.messages.length === 3)
    await atFrame.until(() => atFrame.messages.length === 2)
    expect(atPopup.messages).toEqual(sent)
    expect(atFrame.messages).toEqual([{ type: 'hello' }, { type: 'decision', id: 1, approve: true }] satisfies PopupMessage[])
    await atFrame.until(() => atFrame.peers.includes('here'))
    atPopup.stop()
    atFrame.stop()
  })

  test('what is not a message of the other side is dropped, and what follows still arrives', async () => {
    const { origin, open } = await sandbox()
    const id = newPopupChannelId()
    const atFrame = reader(open(id, 'frame'))
    const raw = (body: unknown) =>
      fetch(`${origin}/popup-channel/${id}/popup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    for (const junk of [
      'hello',
      [1],
      { type: 3 },
      { type: 'decision', id: '1', approve: true },
      { type: 'decision', id: 1 },
      { type: 'open' },
      { type: 'session' },
    ])
      expect((await raw(junk)).status).toBe(204)
    await raw({ type: 'session', result: { walletToken: 't' } })
    await atFrame.until(() => atFrame.messages.length > 0)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(atFrame.messages).toEqual([{ type: 'session', result: { walletToken: 't' } }])
    atFrame.stop()
  })

  test('a refused message rejects with the server status: the side is full (429), the message too large (413)', async () => {
    const { open } = await sandbox({ messagesPerSide: 2, messageBytes: 200 })
    const frame = open(newPopupChannelId(), 'frame')
    await frame.post({ type: 'done' })
    const big = frame.post({ type: 'open', purpose: 'login', hostOrigin: `https://${'a'.repeat(300)}.example` })
    await expect(big).rejects.toEqual(new PopupChannelError(413))
    await frame.post({ type: 'done' })
    const full = await frame.post({ type: 'done' }).catch((error: unknown) => error)
    expect(full).toBeInstanceOf(PopupChannelError)
    expect((full as PopupChannelError).status).toBe(429)
  })

  test('a channel past its lifetime ends its readers once (410), and they stop reading', async () => {
    const { open } = await sandbox({ ttlMs: 300 })
    const id = newPopupChannelId()
    const atPopup = reader(open(id, 'popup'), 100)
    await atPopup.until(() => atPopup.ended() === 1)
    // The ended name stays refused for another lifetime: no new, empty channel under it.
    await expect(open(id, 'frame').post({ type: 'done' })).rejects.toEqual(new PopupChannelError(410))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect([atPopup.ended(), atPopup.messages]).toEqual([1, []])
  })

  test('a side that stops reading is gone for the other (how the frame learns its window closed)', async () => {
    const { open } = await sandbox({ goneMs: 150 })
    const id = newPopupChannelId()
    const atPopup = reader(open(id, 'popup'), 50)
    const atFrame = reader(open(id, 'frame'), 50)
    await atFrame.until(() => atFrame.peers.at(-1) === 'here')
    atPopup.stop()
    await atFrame.until(() => atFrame.peers.at(-1) === 'gone')
    expect(atFrame.peers[0]).not.toBe('gone')
    atFrame.stop()
  })
})
