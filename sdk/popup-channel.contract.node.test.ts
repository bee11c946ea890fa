// The transport contract (bridge/transport.contract.fixture.ts) over the popup channel, against the
// sandbox's real /popup-channel route over HTTP on 127.0.0.1: once over the sdk client alone (the
// channel is over when it outlives its lifetime: 410), once over the frame's end as secure-window.ts
// uses it (the window is gone when it says `closed`, or stops reading after its hello).
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll } from 'vitest'
import { describeTransportContract, type TransportPair } from '../bridge/transport.contract.fixture.ts'
import type { Transport } from '../bridge/transport.ts'
import { createPopupChannels } from '../sandbox/services/popup/channel.ts'
import { popupChannelRoutes } from '../sandbox/services/popup/routes.ts'
import { type FrameMessage, newPopupChannelId, openPopupChannel, type PopupMessage } from './popup-channel.ts'
import { windowTransport } from '../widget/secure/window-transport.ts'

const ttlMs = 60_000
const servers: Server[] = []
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))))

/** A sandbox route whose clock the test can move on (to end a channel by its lifetime). */
async function sandbox() {
  let skew = 0
  const app = new Hono()
  const channels = createPopupChannels({ waitMs: 2_000, goneMs: 150, ttlMs }, () => Date.now() + skew)
  app.route('/popup-channel', popupChannelRoutes({ channels, ownOrigins: () => [] }))
  const server = createAdaptorServer({ fetch: app.fetch }) as Server
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const expire = () => {
    skew += 2 * ttlMs
  }
  return { origin, expire }
}

const malformed = [
  'hello',
  [1],
  { type: 3 },
  { type: 'decision', id: '1', approve: true },
  { type: 'decision', id: 1 },
  { type: 'open', purpose: 'confirm', hostOrigin: 'https://app.example' },
  // Over the route's size limit: refused by the server (413), never read.
  { type: 'decision', id: 9, approve: true, pad: 'x'.repeat(30_000) },
]

async function popupPair(frameEnd: 'client' | 'window' | 'silent'): Promise<TransportPair<FrameMessage, PopupMessage>> {
  const { origin, expire } = await sandbox()
  const id = newPopupChannelId()
  const options = { origin, retryMs: 50 }
  // Reading opens the channel: it exists from now on, and its lifetime runs.
  await fetch(`${origin}/popup-channel/${id}/popup?after=0&wait=0`)
  const frame = openPopupChannel(id, 'frame', options)
  const local = frameEnd === 'client' ? frame : skipHello(windowTransport(frame, { waitMs: 100, goneMs: 150 }))
  // The window's side: it reads the frame's messages as secure windows do.
  const popup = openPopupChannel(id, 'popup', options)
  const received: FrameMessage[] = []
  const stopPopup = popup.listen({ message: (m) => received.push(m) }, 100)
  const decision = (n: number): PopupMessage => ({ type: 'decision', id: n, approve: n % 2 === 0 })
  // The window says hello first, as it does: from then on, its silence means it is gone.
  if (frameEnd !== 'client') await popup.post({ type: 'hello' })
  return {
    local,
    send: (n) => popup.post(decision(n) as Exclude<PopupMessage, { type: 'session' }>),
    expected: decision,
    async sendRaw(value) {
      await fetch(`${origin}/popup-channel/${id}/popup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) })
    },
    received: () => received,
    outgoing: (n) => ({ type: 'state', confirmation: { id: n, kind: 'personal_sign' }, queued: n - 1 }),
    async end() {
      if (frameEnd === 'client') return expire()
      // Closed with a word (pagehide), or without one: it just stops reading.
      if (frameEnd === 'window') await popup.post({ type: 'closed' })
      stopPopup()
    },
    dispose: async () => stopPopup(),
  }
}

/** The window's hello is the frame's business, not part of the numbered messages the suite counts. */
function skipHello(local: Transport<FrameMessage, PopupMessage>): Transport<FrameMessage, PopupMessage> {
  return { post: local.post, listen: (h) => local.listen({ ...h, message: (m) => m.type !== 'hello' && h.message(m) }) }
}

describeTransportContract('popup channel (sdk client; ends with its lifetime)', () => popupPair('client'), { malformed, settleMs: 250 })
describeTransportContract('secure window (the frame end; ends when the window closes)', () => popupPair('window'), { malformed, settleMs: 250 })
describeTransportContract('secure window (the frame end; the window stops reading without a word)', () => popupPair('silent'), { malformed, settleMs: 250 })
