import { describe, expect, it } from 'vitest'
import { createPopupChannels } from './channel.ts'
import { popupChannelRoutes } from './routes.ts'

const own = 'http://localhost:8787'
const id = 'q'.repeat(43)

function setup() {
  const channels = createPopupChannels({ waitMs: 10 })
  const app = popupChannelRoutes({ channels, ownOrigins: () => [own] })
  const post = (side: string, body: string, headers: Record<string, string> = {}) =>
    app.request(`/${id}/${side}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', origin: own, 'sec-fetch-site': 'same-origin', ...headers },
    })
  const read = (side: string, headers: Record<string, string> = {}) =>
    app.request(`/${id}/${side}?wait=0`, { headers: { origin: own, 'sec-fetch-site': 'same-origin', ...headers } })
  return { channels, post, read }
}

describe('/popup-channel', () => {
  it('the provider own pages write and read; the reader gets the other side messages, uncached', async () => {
    const { post, read } = setup()
    expect((await post('frame', '{"type":"open"}')).status).toBe(204)
    const answer = await read('popup')
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(await answer.json()).toMatchObject({ messages: [{ type: 'open' }], next: 1 })
  })

  it('refuses any other origin, and requests a browser marks as cross-site, reading or writing', async () => {
    const { post, read, channels } = setup()
    expect((await post('frame', '{"type":"decision"}', { origin: 'http://127.0.0.1:5173' })).status).toBe(403)
    expect((await post('frame', '{"type":"decision"}', { origin: own, 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect((await read('popup', { origin: 'http://127.0.0.1:5173' })).status).toBe(403)
    expect((await read('popup', { 'sec-fetch-site': 'same-site' })).status).toBe(403)
    expect(channels.size()).toBe(0)
  })

  it('malformed input gets a 4xx and writes nothing', async () => {
    const { post, read } = setup()
    expect((await post('frame', '{not json')).status).toBe(400)
    expect((await post('frame', '"x"', { 'content-type': 'text/plain' })).status).toBe(415)
    expect((await post('host', '{}')).status).toBe(404)
    expect((await post('frame', JSON.stringify({ big: 'x'.repeat(30_000) }))).status).toBe(413)
    expect(await (await read('popup')).json()).toMatchObject({ messages: [] })
  })
})
