import { Hono } from 'hono'
import type { Deps } from '../../context.ts'
import { listInbox } from './queries.ts'
import { inboxView } from './views.ts'

/** The dev inbox: where login codes "arrive" in the sandbox. JSON for tests, a page for people. */
export function inboxRoutes(deps: Deps) {
  return new Hono()
    .get('/api/inbox', async (c) => c.json(await listInbox(deps.store, { to: recipient(c.req.query('to')) })))
    .get('/inbox', async (c) => {
      const to = recipient(c.req.query('to'))
      c.header('Cache-Control', 'no-store')
      return c.html(inboxView(await listInbox(deps.store, { to }), to))
    })
}

/** E-mail addresses are stored lower-cased; phone numbers as digits. */
function recipient(value: string | undefined) {
  const to = value?.trim()
  return to ? to.toLowerCase() : undefined
}
