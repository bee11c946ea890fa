import { describe, expect, it } from 'vitest'
import { ChannelError, createPopupChannels, defaultChannelLimits } from './channel.ts'

const id = 'a'.repeat(43)
const id2 = 'b'.repeat(43)
const id3 = 'c'.repeat(43)

describe('popup channel', () => {
  it('each side reads what the other wrote, in order, never its own', async () => {
    const channels = createPopupChannels({ waitMs: 10 })
    channels.post(id, 'frame', { type: 'request', n: 1 })
    channels.post(id, 'frame', { type: 'request', n: 2 })
    channels.post(id, 'popup', { type: 'hello' })
    expect(await channels.read(id, 'popup', 0)).toMatchObject({
      messages: [
        { type: 'request', n: 1 },
        { type: 'request', n: 2 },
      ],
      next: 2,
    })
    expect(await channels.read(id, 'popup', 1)).toMatchObject({ messages: [{ type: 'request', n: 2 }], next: 2 })
    expect(await channels.read(id, 'frame', 0)).toMatchObject({ messages: [{ type: 'hello' }], next: 1 })
    // Another channel's name reads nothing of this one.
    expect(await channels.read(id2, 'frame', 0)).toMatchObject({ messages: [], next: 0, peer: 'unseen' })
  })

  it('a waiting read is answered by the next message, and gives up after waitMs', async () => {
    const channels = createPopupChannels({ waitMs: 5_000 })
    channels.post(id, 'popup', { type: 'hello' })
    const pending = channels.read(id, 'popup', 0)
    setTimeout(() => channels.post(id, 'frame', { type: 'decision' }), 20)
    expect(await pending).toMatchObject({ messages: [{ type: 'decision' }], next: 1 })
    const quick = createPopupChannels({ waitMs: 30 })
    quick.post(id, 'frame', 1)
    const started = Date.now()
    expect(await quick.read(id, 'frame', 0)).toMatchObject({ messages: [], next: 0 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(25)
  })

  it('an aborted read ends at once', async () => {
    const channels = createPopupChannels({ waitMs: 60_000 })
    channels.post(id, 'frame', 1)
    const abort = new AbortController()
    const pending = channels.read(id, 'frame', 0, { signal: abort.signal })
    abort.abort()
    expect(await pending).toMatchObject({ messages: [], next: 0 })
  })

  it('refuses bad names, oversized messages, floods and too many channels', async () => {
    const channels = createPopupChannels({ messageBytes: 100, messagesPerSide: 3, channels: 2, waitMs: 1 })
    const status = (fn: () => unknown) => {
      try {
        fn()
      } catch (error) {
        return error instanceof ChannelError ? error.status : 'other'
      }
      return 'accepted'
    }
    expect(status(() => channels.post('short', 'frame', 1))).toBe(400)
    expect(status(() => channels.post(`${'a'.repeat(42)}=`, 'frame', 1))).toBe(400)
    expect(status(() => channels.post(id, 'frame', undefined))).toBe(400)
    expect(status(() => channels.post(id, 'frame', 'x'.repeat(200)))).toBe(413)
    for (let i = 0; i < 3; i++) expect(status(() => channels.post(id, 'frame', i))).toBe('accepted')
    expect(status(() => channels.post(id, 'frame', 4))).toBe(429)
    // The other side still has its own quota.
    expect(status(() => channels.post(id, 'popup', 'hello'))).toBe('accepted')
    expect(status(() => channels.post(id2, 'frame', 1))).toBe('accepted')
    expect(status(() => channels.post('c'.repeat(43), 'frame', 1))).toBe(503)
    await expect(channels.read(id, 'frame', -1)).rejects.toThrow(ChannelError)
  })

  it('tells a side whether the other is still there: unseen, reading, then gone once it stops reading', async () => {
    let t = 1_000
    const channels = createPopupChannels({ goneMs: 2_000, waitMs: 60_000 }, () => t)
    expect((await channels.read(id, 'frame', 0, { waitMs: 0 })).peer).toBe('unseen')
    const abort = new AbortController()
    const popupReading = channels.read(id, 'popup', 0, { signal: abort.signal })
    t += 10_000
    // Still reading (a long poll in flight): here, however long ago it started.
    expect((await channels.read(id, 'frame', 0, { waitMs: 0 })).peer).toBe('here')
    abort.abort()
    await popupReading
    expect((await channels.read(id, 'frame', 0, { waitMs: 0 })).peer).toBe('here')
    t += 2_001
    expect((await channels.read(id, 'frame', 0, { waitMs: 0 })).peer).toBe('gone')
  })

  it('one client cannot open every channel: a flood from one address is refused, others still open theirs', async () => {
    const channels = createPopupChannels({ channelsPerClient: 3, waitMs: 1 })
    const name = (n: number) => `${String(n).padStart(43, 'x')}`
    for (let n = 0; n < 3; n++) channels.post(name(n), 'frame', 1, '203.0.113.9')
    expect(() => channels.post(name(3), 'frame', 1, '203.0.113.9')).toThrow('Too many channels opened')
    await expect(channels.read(name(4), 'frame', 0, { client: '203.0.113.9' })).rejects.toThrow('Too many channels opened')
    // Its existing channels still work, and another client is unaffected.
    channels.post(name(0), 'frame', 2, '203.0.113.9')
    channels.post(name(5), 'frame', 1, '198.51.100.7')
  })

  it('forgets a channel after its time to live; its name stays refused (410) for another, then is free', async () => {
    let t = 0
    const channels = createPopupChannels({ ttlMs: 1_000, waitMs: 1 }, () => t)
    channels.post(id, 'frame', { secret: 1 })
    expect(channels.size()).toBe(1)
    expect(channels.bytes()).toBe(JSON.stringify({ secret: 1 }).length)
    t = 1_001
    expect(channels.size()).toBe(0)
    expect(channels.bytes()).toBe(0)
    // A reader going on, or a writer, learns that the channel ended: never a new, empty one under the same name.
    await expect(channels.read(id, 'popup', 1)).rejects.toMatchObject({ status: 410 })
    expect(() => channels.post(id, 'popup', { late: true })).toThrow(expect.objectContaining({ status: 410 }))
    t = 2_002
    // The old message is gone for good.
    expect(await channels.read(id, 'popup', 0)).toMatchObject({ messages: [], next: 0 })
  })

  it('holds a bounded number of bytes per client and in all, and gives them back when a channel ends', () => {
    let t = 0
    const channels = createPopupChannels({ bytesPerClient: 100, bytes: 150, messageBytes: 60 }, () => t)
    const big = 'x'.repeat(40) // 42 bytes of JSON
    channels.post(id, 'frame', big, 'a')
    channels.post(id, 'popup', big, 'a')
    expect(() => channels.post(id, 'frame', big, 'a')).toThrow(expect.objectContaining({ status: 429 }))
    channels.post(id2, 'frame', big, 'b')
    // 126 bytes held: the next message from anyone would pass 150.
    expect(() => channels.post(id2, 'frame', big, 'c')).toThrow(expect.objectContaining({ status: 503 }))
    t = defaultChannelLimits.ttlMs + 1
    expect(channels.bytes()).toBe(0)
    channels.post(id3, 'frame', big, 'a')
  })

  it('takes a message under a `once` key once per channel, and says so beforehand', () => {
    const channels = createPopupChannels()
    expect(channels.accepts(id, 'popup', 'session')).toBe(true)
    channels.post(id, 'popup', { type: 'session' }, 'local', { once: 'session' })
    expect(channels.accepts(id, 'popup', 'session')).toBe(false)
    expect(() => channels.post(id, 'popup', { type: 'session' }, 'local', { once: 'session' })).toThrow(expect.objectContaining({ status: 409 }))
    expect(channels.accepts('bad', 'popup', 'session')).toBe(false)
  })
})
