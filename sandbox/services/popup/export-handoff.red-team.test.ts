import { describe, expect, it } from 'vitest'
import { readPopupMessage } from '../../../sdk/popup-channel.ts'
import { createPopupChannels } from './channel.ts'
import { popupChannelRoutes } from './routes.ts'

// Red team, the key export's handoff in the mailbox: the frame writes the session's wallet token and
// its step-up proof on the channel for the secure window. The name is the only key, and a client that
// is not a browser sends no Origin and no Sec-Fetch-Site: whoever learns the name later (a log line
// of the channel's path, a proxy's access log) reads the channel from index 0 with a plain HTTP
// client. The handoff is therefore given out once, and the token does not wait there ten minutes.

const own = 'http://localhost:8787'
const id = 'K'.repeat(43)
const walletToken = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl'
const stepUpProof = `sup_${'p'.repeat(43)}`
const handoff = { type: 'export-key', walletToken, stepUpProof }

function setup() {
  const channels = createPopupChannels({ waitMs: 10 })
  const app = popupChannelRoutes({ channels, ownOrigins: () => [own] })
  const browser = { origin: own, 'sec-fetch-site': 'same-origin' }
  const post = (side: string, message: unknown) =>
    app.request(`/${id}/${side}`, { method: 'POST', body: JSON.stringify(message), headers: { 'content-type': 'application/json', ...browser } })
  /** Reads `side` from index 0 with the given headers (none: a script outside any browser). */
  const read = async (side: string, headers: Record<string, string>) => {
    const answer = await app.request(`/${id}/${side}?after=0&wait=0`, { headers })
    expect(answer.status).toBe(200)
    return ((await answer.json()) as { messages: unknown[] }).messages
  }
  return { channels, post, read, browser }
}

describe('red team: the key-export handoff in the popup channel', () => {
  it('the window reads it once; a later read from the start (a name learned afterwards) finds no token nor proof', async () => {
    const { post, read, browser, channels } = setup()
    expect((await post('frame', { type: 'open', purpose: 'export-key', hostOrigin: 'http://127.0.0.1:5173' })).status).toBe(204)
    expect((await post('frame', handoff)).status).toBe(204)
    const stored = channels.bytes()
    // The window: its one read gets the handoff as written, which its client takes.
    const first = await read('popup', browser)
    expect(first).toEqual([{ type: 'open', purpose: 'export-key', hostOrigin: 'http://127.0.0.1:5173' }, handoff])
    expect(readPopupMessage('popup', first[1])).toEqual(handoff)

    // Anyone else afterwards, as a browser page of the provider or as a plain script.
    for (const headers of [browser, {}]) {
      const again = await read('popup', headers)
      expect(JSON.stringify(again)).not.toContain(walletToken)
      expect(JSON.stringify(again)).not.toContain(stepUpProof)
      // The other messages stay readable as the wire promises; the stub is dropped by the client.
      expect(again[0]).toEqual(first[0])
      expect(again).toHaveLength(2)
      expect(readPopupMessage('popup', again[1])).toBeNull()
    }
    // What the token held in memory is given back to the budgets.
    expect(channels.bytes()).toBeLessThan(stored)
  })

  it('a reader racing the window: only one of the two ever holds the handoff', async () => {
    const { post, read, browser } = setup()
    await post('frame', handoff)
    const [a, b] = await Promise.all([read('popup', browser), read('popup', {})])
    const holding = [a, b].filter((messages) => JSON.stringify(messages).includes(walletToken))
    expect(holding).toHaveLength(1)
  })

  it('a plain script holding the name is not kept out of the channel by the origin check (why read-once matters)', async () => {
    const { post, read } = setup()
    await post('frame', { type: 'done' })
    expect(await read('popup', {})).toEqual([{ type: 'done' }])
  })
})
