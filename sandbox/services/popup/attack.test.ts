import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { createPopupChannels, defaultChannelLimits } from './channel.ts'
import { popupChannelRoutes } from './routes.ts'

// Attacks on the popup channel and the handoff, as a client that is not a browser (a script on
// loopback, or anywhere on the internet in production): it sends whatever headers it likes, so the
// Origin / Sec-Fetch-Site check does not stop it; only what it knows and the limits do.
// Each test FAILS while the hole exists.

const own = 'http://localhost:8787'
const MB = 1024 * 1024

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const heap = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/** 16 KB of JSON (the per-message limit) that parses into ~5,400 empty arrays: ~13x its size in memory. */
const bloated = `[${Array(Math.floor((defaultChannelLimits.messageBytes - 2) / 3))
  .fill('[]')
  .join(',')}]`

const channelId = (n: number, prefix = 'f') => `${prefix}${String(n).padStart(42, '0')}`

describe('the channel store holds a bounded amount of memory', () => {
  it('one client (one IP) cannot make the server hold more than 256 MB', async () => {
    const channels = createPopupChannels()
    const app = popupChannelRoutes({ channels, ownOrigins: () => [own] })
    const budget = 256 * MB
    const before = heap()
    let accepted = 0
    let held = 0
    // Every channel this client may open, every message both sides may write: all under the route's limits.
    outer: for (let c = 0; c < defaultChannelLimits.channelsPerClient; c++)
      for (const side of ['frame', 'popup'])
        for (let m = 0; m < defaultChannelLimits.messagesPerSide; m++) {
          const res = await app.request(`/${channelId(c)}/${side}`, { method: 'POST', body: bloated, headers: { 'content-type': 'application/json' } })
          if (res.status !== 204) break outer
          accepted++
          if (accepted % 128 === 0) {
            held = heap() - before
            // Stop before the test itself runs out of memory: the point is made.
            if (held > budget) break outer
          }
        }
    held = heap() - before
    expect(held, `${accepted} messages of ${bloated.length} bytes accepted from one client; the store now holds ${(held / MB).toFixed(0)} MB`).toBeLessThan(
      budget,
    )
  }, 120_000)

  it('all clients together (many IPs, e.g. IPv6 /64s) cannot make it hold more than 512 MB', () => {
    const channels = createPopupChannels()
    const budget = 512 * MB
    const before = heap()
    const small = JSON.parse(`"${'x'.repeat(defaultChannelLimits.messageBytes - 16)}"`) as string
    let accepted = 0
    let held = 0
    try {
      outer: for (let c = 0; c < defaultChannelLimits.channels; c++)
        for (const side of ['frame', 'popup'] as const)
          for (let m = 0; m < defaultChannelLimits.messagesPerSide; m++) {
            // A distinct string per message: what distinct requests would give the server.
            channels.post(channelId(c, 'g'), side, `${m}${small}`, `2001:db8:${Math.floor(c / defaultChannelLimits.channelsPerClient)}::/64`)
            accepted++
            if (accepted % 2048 === 0) {
              held = heap() - before
              if (held > budget) break outer
            }
          }
    } catch {
      // Refused: the store is full, which is what should happen well before the budget.
    }
    held = heap() - before
    expect(held, `${accepted} messages accepted; the store holds ${(held / MB).toFixed(0)} MB`).toBeLessThan(budget)
  }, 120_000)
})

describe('malformed input', () => {
  it('a deeply nested JSON message (under the 20 KB body limit) gets a 4xx, not a 500', async () => {
    const channels = createPopupChannels()
    const app = popupChannelRoutes({ channels, ownOrigins: () => [own] })
    const depth = 10_000
    const body = '['.repeat(depth) + ']'.repeat(depth)
    expect(body.length).toBeLessThan(20 * 1024)
    const res = await app.request(`/${channelId(1)}/frame`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', origin: own, 'sec-fetch-site': 'same-origin' },
    })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })
})

describe('an expired channel', () => {
  it('is not silently re-created empty under a reader that goes on from where it was', async () => {
    let t = 1_000_000
    const channels = createPopupChannels({ waitMs: 0 }, () => t)
    const id = channelId(7)
    channels.post(id, 'popup', { type: 'hello' })
    const first = await channels.read(id, 'frame', 0)
    expect(first.next).toBe(1)
    // The user is slow (a code from the inbox): the channel outlives its ttl.
    t += defaultChannelLimits.ttlMs + 1
    // The service writing the session into it learns that the channel ended (and so makes none).
    expect(() => channels.post(id, 'popup', { type: 'session' })).toThrow(expect.objectContaining({ status: 410 }))
    // The frame reads on from 1, as openChannel().listen does: the read must fail so the frame can
    // tell (410: the window counts as closed); an empty answer would leave it waiting for good.
    await expect(channels.read(id, 'frame', first.next)).rejects.toMatchObject({ status: 410 })
  })
})

describe('POST /api/v2/auth/handoff', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    // A small per-session budget, so the flood below is short; the per-IP one stays out of its way.
    sandbox = await startTestSandbox({ rateLimits: { handoffsPerSession: { max: 5, windowMs: 60 * 60_000 } } })
  }, 120_000)
  afterAll(() => sandbox?.dispose())

  it('a wallet token cannot be turned into a session that outlives its logout', async () => {
    const victim = await sandbox.signUp('handoff-victim@example.com')
    // Whoever holds the (15 minute) wallet token, e.g. a copy that leaked, names a channel of its own
    // and poses as the widget (a script sets any Origin it likes).
    const channel = channelId(42, 'h')
    const handed = await sandbox.call('/api/v2/auth/handoff', {
      method: 'POST',
      secret: null,
      headers: { origin: sandbox.url, authorization: `Bearer ${victim.walletToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel }),
    })
    expect(handed.status).toBe(200)
    // "The caller never sees it": the caller named the channel, so it reads it.
    const read = await fetch(`${sandbox.url}/popup-channel/${channel}/frame?wait=0`)
    const { messages } = (await read.json()) as { messages: { type: string; result: { refreshToken: string; walletToken: string } }[] }
    const stolen = messages.find((m) => m.type === 'session')?.result
    expect(stolen?.refreshToken).toEqual(expect.any(String))

    // The user logs out (the frame's Disconnect): the session the token came from ends.
    expect((await sandbox.post('/api/v2/wallet/logout', { refreshToken: victim.refreshToken }, victim.walletToken)).status).toBe(200)
    expect((await sandbox.post('/api/v2/wallet/address', { network: 'evm' }, victim.walletToken)).status).toBe(401)
    // The session minted from it must end with it.
    const refreshed = await sandbox.post('/api/v2/wallet/refresh', { refreshToken: stolen!.refreshToken })
    expect(refreshed.status, 'the handed-off session (a new refresh family, 7 days, renewable) survives the logout').toBe(401)
  })

  const handoff = (walletToken: string, channel: string) =>
    sandbox.call('/api/v2/auth/handoff', {
      method: 'POST',
      secret: null,
      headers: { origin: sandbox.url, authorization: `Bearer ${walletToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel }),
    })

  it('one session per channel; the handed-over token never outlives its session; a refused handoff mints nothing', async () => {
    const user = await sandbox.signUp('handoff-once@example.com')
    const channel = channelId(43, 'h')
    expect((await handoff(user.walletToken, channel)).status).toBe(200)
    const again = await handoff(user.walletToken, channel)
    expect(again.status).toBe(409)
    const read = await fetch(`${sandbox.url}/popup-channel/${channel}/frame?wait=0`)
    const { messages } = (await read.json()) as { messages: { type: string; result: { refreshToken: string } }[] }
    expect(messages.filter((m) => m.type === 'session')).toHaveLength(1)
    const exp = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp
    expect(exp(messages[0]!.result.refreshToken)).toBeLessThanOrEqual(exp(user.refreshToken))
    const { rows } = await sandbox.store.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_tokens')
    // A channel that cannot take it (a bad name, or one already holding a session) leaves no token behind.
    expect((await handoff(user.walletToken, channel)).status).toBe(409)
    expect((await handoff(user.walletToken, 'not-a-channel')).status).toBe(400)
    const after = await sandbox.store.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_tokens')
    expect(after.rows[0]!.n).toBe(rows[0]!.n)
  })

  it('a flood of handoffs from one session is cut off (429)', async () => {
    const user = await sandbox.signUp('handoff-flood@example.com')
    const statuses: number[] = []
    for (let n = 0; n < 7; n++) statuses.push((await handoff(user.walletToken, channelId(1000 + n, 'k'))).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
    // Another session is not held back by it.
    const other = await sandbox.signUp('handoff-other@example.com')
    expect((await handoff(other.walletToken, channelId(2000, 'k'))).status).toBe(200)
  }, 60_000)
})
