import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { createSessionStore } from './session.ts'
import { memoryEntries } from './storage.ts'
import { alice } from './wallet.fixture.ts'

// The stored session lasts 7 days from when it was written: loaded until then, dropped after.

const day = 24 * 60 * 60 * 1000
const start = new Date('2026-01-05T10:00:00Z').getTime()
const { sites: _, ...session } = alice

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(start)
})
afterEach(() => vi.useRealTimers())

test('a session saved now expires exactly 7 days later: loaded 1 ms before, gone (and deleted) at 7 days', async () => {
  const entries = memoryEntries()
  const store = createSessionStore('demo', 'sandbox', entries)
  const saved = await store.save(session)
  expect(saved.expiresAt).toBe(start + 7 * day)
  vi.setSystemTime(start + 6 * day)
  expect(await store.load()).toMatchObject({ address: alice.address, token: alice.token })
  vi.setSystemTime(start + 7 * day - 1)
  expect(await store.load()).toMatchObject({ address: alice.address })
  vi.setSystemTime(start + 7 * day)
  expect(await store.load()).toBeNull()
  expect(entries.peek('session:demo:sandbox')).toBeUndefined()
})

test('saving again (a new login) starts a new 7 days', async () => {
  const store = createSessionStore('demo', 'sandbox', memoryEntries())
  await store.save(session)
  vi.setSystemTime(start + 5 * day)
  await store.save({ ...session, token: 'newer' })
  vi.setSystemTime(start + 11 * day)
  expect(await store.load()).toMatchObject({ token: 'newer' })
  vi.setSystemTime(start + 12 * day)
  expect(await store.load()).toBeNull()
})
