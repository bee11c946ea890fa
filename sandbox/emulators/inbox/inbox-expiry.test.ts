import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { inboxLifetimeHours } from './queries.ts'

// The dev inbox is written for callers who need no account (every login code asked for): before,
// nothing was ever deleted from it.

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const count = async () => (await sandbox.store.query<{ n: number }>('SELECT count(*)::int AS n FROM inbox_messages')).rows[0]!.n

test(`messages older than ${inboxLifetimeHours} hours are deleted as new ones arrive; newer ones stay`, async () => {
  for (let n = 0; n < 6; n++) await sandbox.requestCode(`old-${n}@example.com`)
  await sandbox.store.query(`UPDATE inbox_messages SET created_at = now() - interval '${inboxLifetimeHours + 1} hours'`)
  const kept = await sandbox.requestCode('recent@example.com')
  expect(await count()).toBe(1)
  // A message inside the lifetime is not touched by the next one.
  await sandbox.store.query(`UPDATE inbox_messages SET created_at = now() - interval '${inboxLifetimeHours - 1} hours'`)
  await sandbox.requestCode('next@example.com')
  expect(await count()).toBe(2)
  const inbox = (await sandbox.call('/dev/api/inbox?to=recent@example.com')).body as { code: string }[]
  expect(inbox.map((message) => message.code)).toEqual([kept.code])
})
