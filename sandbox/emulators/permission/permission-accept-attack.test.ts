import { describe, expect, test } from 'vitest'
import { wrongFor } from '../../services/step-up/step-up.fixture.ts'
import { type LockedUser, permissionPageForFile } from './permission.fixture.ts'

// Attacks on the permission-accept page through its real HTTP routes, as whoever holds a link (a
// thief with the wallet token makes their own), as another site's page in the user's browser, and
// as input the page reflects. The permission stays off each time unless the right answer comes
// through the page itself; each test fails if its attack works.

const t = permissionPageForFile()

async function notGranted(user: LockedUser) {
  expect(await t.perm.granted(user.address)).toBe(false)
  expect((await t.perm.sign(user.walletToken)).body.status).toBe(407)
}

describe('guessing and spamming through the page', () => {
  test('wrong codes are counted for the session across restarts: after the budget, even the right code of a new one grants nothing', async () => {
    const user = await t.perm.lockedUser('paa-guess@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    let wrong = 0
    // Four codes, five wrong tries each: the session's 20 wrong codes.
    for (let n = 0; n < 4; n++) {
      const challengeId = t.perm.challengeIdIn((await t.perm.post({ token })).html)
      const code = await t.perm.code(user.email)
      for (let i = 0; i < 5; i++) {
        const answer = await t.perm.post({ token, challengeId, code: wrongFor(code) })
        expect(answer.status).toBeGreaterThanOrEqual(400)
        expect(answer.status).toBeLessThan(500)
        wrong++
      }
    }
    expect(wrong).toBe(20)
    const fresh = await t.perm.post({ token })
    const challengeId = /name="challengeId" value="([^"]+)"/.exec(fresh.html)?.[1]
    if (challengeId) {
      const right = await t.perm.post({ token, challengeId, code: await t.perm.code(user.email) })
      expect(right.status, right.html).toBe(429)
      expect(right.html).not.toContain('Permission granted')
    } else expect(fresh.status).toBe(429)
    await notGranted(user)
  })

  test('confirming over and over sends no more codes than the 30-second wait and the window allow, each refused post a 429 page, never a 500', async () => {
    const user = await t.perm.lockedUser('paa-spam@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const before = await t.perm.inboxSize(user.email)
    const statuses: number[] = []
    for (let i = 0; i < 14; i++) statuses.push((await t.perm.post({ token })).status)
    expect(await t.perm.inboxSize(user.email)).toBeLessThanOrEqual(before + 10)
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true)
    await notGranted(user)
  })

  test('a code started on one link, answered on another link’s form (same session): refused, and the first link still grants with it', async () => {
    const user = await t.perm.lockedUser('paa-cross@example.com')
    const first = await t.perm.tokenOf(user.walletToken)
    const second = await t.perm.tokenOf(user.walletToken)
    const challengeId = t.perm.challengeIdIn((await t.perm.post({ token: first })).html)
    const code = await t.perm.code(user.email)
    const crossed = await t.perm.post({ token: second, challengeId, code })
    expect(crossed.html).not.toContain('Permission granted')
    await notGranted(user)
    // The refusal spent the challenge: the first link starts again and grants with a new code.
    const again = t.perm.challengeIdIn((await t.perm.post({ token: first })).html)
    expect((await t.perm.post({ token: first, challengeId: again, code: await t.perm.code(user.email) })).html).toContain('Permission granted')
  })
})

describe('another site’s page in the user’s browser', () => {
  test.each([
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['Sec-Fetch-Site same-site (a sibling host)', { 'sec-fetch-site': 'same-site', origin: 'https://evil.localhost' }],
    ['Sec-Fetch-Site none', { 'sec-fetch-site': 'none' }],
    ['Origin null (a sandboxed frame or data: page), no Sec-Fetch-Site', { origin: 'null' }],
    ['a foreign Origin, no Sec-Fetch-Site', { origin: 'https://evil.example' }],
  ])('%s: the post is refused, sends no code, and the right code posted by the page still grants', async (_, headers) => {
    const user = await t.perm.lockedUser(`paa-csrf-${Object.values(headers).join('').replace(/\W/g, '')}@example.com`)
    const token = await t.perm.tokenOf(user.walletToken)
    const inbox = await t.perm.inboxSize(user.email)
    const started = await t.perm.post({ token }, headers)
    expect(started.status).toBe(403)
    expect(await t.perm.inboxSize(user.email)).toBe(inbox)
    const challengeId = t.perm.challengeIdIn((await t.perm.post({ token })).html)
    const code = await t.perm.code(user.email)
    const forged = await t.perm.post({ token, challengeId, code }, headers)
    expect(forged.status).toBe(403)
    await notGranted(user)
    expect((await t.perm.post({ token, challengeId, code })).html).toContain('Permission granted')
  })
})

describe('reflected input', () => {
  const payload = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
  const clean = (answer: { html: string; headers: Headers }) => {
    expect(answer.html).not.toContain('<script>alert')
    expect(answer.html).not.toContain('<img src=x')
    expect(answer.html).not.toContain('onerror=alert')
    const csp = answer.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/)
  }

  test('a token, challenge id, code, credential or factor carrying markup is never written into the page as markup', async () => {
    const user = await t.perm.lockedUser('paa-xss@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    clean(await t.perm.open(payload))
    clean(await t.perm.open(`${token}${payload}`))
    clean(await t.perm.post({ token: payload }))
    const challengeId = t.perm.challengeIdIn((await t.perm.post({ token })).html)
    clean(await t.perm.post({ token, challengeId: payload, code: payload }))
    clean(await t.perm.post({ token, challengeId, code: payload }))
    clean(await t.perm.post({ token, challengeId: payload, credential: JSON.stringify({ id: payload, rawId: payload, type: payload, response: {} }) }))
    clean(await t.perm.post({ token, challengeId, credential: payload }))
    clean(await t.perm.post({ token, code: payload }))
    clean(await t.perm.post({ token, factor: payload }))
    await notGranted(user)
  })

  test('no answer of the page redirects (no Location header), whatever the fields say', async () => {
    const user = await t.perm.lockedUser('paa-redirect@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const fields = { token, next: 'https://evil.example/', redirect: 'https://evil.example/', returnTo: '//evil.example' }
    for (const answer of [
      await fetch(`${t.sandbox.url}/permission/accept?${new URLSearchParams(fields)}`, { redirect: 'manual' }),
      await fetch(`${t.sandbox.url}/permission/accept`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' }),
    ]) {
      expect(answer.status).toBeLessThan(300)
      expect(answer.headers.get('location')).toBeNull()
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer')
      await answer.text()
    }
  })
})

describe('the link as a credential', () => {
  test('a permission link’s token is no wallet token, and a wallet token is no permission link', async () => {
    const user = await t.perm.lockedUser('paa-kind@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const inbox = await t.perm.inboxSize(user.email)
    const signed = await t.sandbox.post('/api/v2/wallet/sign-message', { network: 'local-1', message: 'hi' }, token)
    expect(signed.body.status).toBe(401)
    const asLink = await t.perm.post({ token: user.walletToken })
    expect(asLink.status).toBe(400)
    expect(asLink.html).toContain('This link is invalid')
    expect((await t.perm.open(user.walletToken)).html).toContain('This link is invalid')
    expect(await t.perm.inboxSize(user.email)).toBe(inbox)
    await notGranted(user)
  })

  test('a huge form or one with control characters is a 4xx page, sends no code and grants nothing', async () => {
    const user = await t.perm.lockedUser('paa-body@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const inbox = await t.perm.inboxSize(user.email)
    // Past the path's 16 KB (a bigger one is cut off mid-send, which a client sees as a closed socket).
    const huge = await t.perm.post({ token, code: '1'.repeat(20 * 1024) })
    expect(huge.status).toBe(413)
    const odd: Record<string, string>[] = [{ token, factor: 'email\u0000' }, { token: `${token}\u0000` }, { token, code: '12\u000034' }]
    for (const fields of odd) {
      const answer = await t.perm.post(fields)
      expect(answer.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
    }
    expect(await t.perm.inboxSize(user.email)).toBe(inbox)
    await notGranted(user)
  })
})
