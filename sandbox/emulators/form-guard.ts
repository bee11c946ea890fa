import type { Context } from 'hono'
import { HttpError } from '../http/exchange.ts'
import { clientIp } from '../http/rate-limit.ts'
import type { Deps } from '../context.ts'
import { page, pageHeaders } from './page-view.ts'

// The sign-in emulators' form posts (Google, Apple, Telegram) come from their own pages, which the
// popup opens on the sandbox's origin. No other page has a reason to post them: a foreign page
// that does is refused, and every caller is rate-limited, so no page can grow the database.

/**
 * Whether a form post comes from one of the sandbox's own pages, or from no browser at all (a test,
 * curl: no Origin, no Sec-Fetch-Site). The emulators' pages send no referrer, so a browser's Origin
 * on their own posts is "null" (the Fetch standard's rule for no-referrer); Sec-Fetch-Site, which a
 * page cannot set or hide, says "same-origin" then. Without it, only an own Origin passes.
 */
export function fromOwnPage(c: Context, deps: Pick<Deps, 'ownOrigins'>): boolean {
  const site = c.req.header('sec-fetch-site')
  if (site !== undefined) return site === 'same-origin'
  const origin = c.req.header('origin')
  return origin === undefined || deps.ownOrigins().includes(origin)
}

/**
 * Refuses a post from another site's page (403) or one past the caller's budget (429, counted per
 * client address under the login budget's rule, apart from the logins themselves), as an error
 * page; undefined when the post may go on.
 */
export function guardFormPost(c: Context, deps: Pick<Deps, 'ownOrigins' | 'limiter'>, emulator: string): Response | undefined {
  const refuse = (status: 403 | 429, message: string, headers: Record<string, string> = {}) =>
    c.html(page({ title: 'Sign-in error', body: `<h1>Sign-in error</h1><p>${message}</p>` }), status, { ...pageHeaders(), ...headers })
  if (!fromOwnPage(c, deps)) return refuse(403, `Only the ${emulator} sign-in page itself may post this form.`)
  try {
    deps.limiter.hit('loginsPerIp', `emulator-form\u0000${clientIp(c)}`)
  } catch (error) {
    if (error instanceof HttpError && error.status === 429) return refuse(429, `Too many sign-ins from your address. ${error.message}.`, error.headers)
    throw error
  }
  return undefined
}
