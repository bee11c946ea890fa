import { createHash } from 'node:crypto'
import { verifyMessage } from 'viem'
import { describe, expect, test } from 'vitest'
import { softwareAuthenticator } from '../../services/passkeys/authenticator.fixture.ts'
import { passkeyStepUp } from '../../services/passkeys/passkey-step-up.fixture.ts'
import { wrongFor } from '../../services/step-up/step-up.fixture.ts'
import { passkeyScript } from './views.ts'
import { claimsOf, permissionPageForFile } from './permission.fixture.ts'

// The permission-accept page as its user goes through it: the link names the session that asked,
// opening it changes nothing, confirming asks that session's second factor (an e-mail code, or the
// passkey), and only the right answer grants.

const t = permissionPageForFile()

describe('the link', () => {
  test('names the asking session and a grant of its own: each refused signature mints a new one', async () => {
    const user = await t.perm.lockedUser('pa-link@example.com')
    const first = claimsOf(await t.perm.tokenOf(user.walletToken))
    const second = claimsOf(await t.perm.tokenOf(user.walletToken))
    expect(first.fam).toBe(claimsOf(user.walletToken).fam)
    expect(first.typ).toBe('permission')
    expect(first.jti).toEqual(expect.any(String))
    expect(second.jti).not.toBe(first.jti)
  })

  test('opening it shows the app and wallet, sends no code and grants nothing', async () => {
    const user = await t.perm.lockedUser('pa-get@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const before = await t.perm.inboxSize(user.email)
    for (let i = 0; i < 3; i++) {
      const shown = await t.perm.open(token)
      expect(shown.status).toBe(200)
      expect(shown.html).toContain(user.address)
      expect(shown.html).toContain('Wallet Kit Demo')
      expect(shown.html).toContain('Grant permission')
      expect(shown.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    }
    expect(await t.perm.inboxSize(user.email)).toBe(before)
    expect(await t.perm.granted(user.address)).toBe(false)
  })
})

describe('the e-mail code', () => {
  test('confirming sends a code; a wrong one keeps the form and grants nothing; the right one grants, and signing works', async () => {
    const user = await t.perm.lockedUser('pa-code@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const asked = await t.perm.post({ token })
    expect(asked.status).toBe(200)
    expect(asked.html).toContain('We sent a code to <b>p•••@example.com</b>')
    expect(asked.html).toContain('name="code"')
    const challengeId = t.perm.challengeIdIn(asked.html)
    const code = await t.perm.code(user.email)

    const wrong = await t.perm.post({ token, challengeId, code: wrongFor(code) })
    expect(wrong.status).toBe(400)
    expect(wrong.html).toContain('That code is not right')
    expect(t.perm.challengeIdIn(wrong.html)).toBe(challengeId)
    expect(await t.perm.granted(user.address)).toBe(false)
    expect((await t.perm.sign(user.walletToken)).body.status).toBe(407)

    const right = await t.perm.post({ token, challengeId, code })
    expect(right.status, right.html).toBe(200)
    expect(right.html).toContain('Permission granted')
    expect(await t.perm.granted(user.address)).toBe(true)
    const signed = await t.perm.sign(user.walletToken)
    expect(await verifyMessage({ address: user.address as `0x${string}`, message: 'hi', signature: signed.body.data.signature })).toBe(true)
  })

  test('an expired or used challenge asks to start again; starting again sends a new code that grants', async () => {
    const user = await t.perm.lockedUser('pa-expired@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const challengeId = t.perm.challengeIdIn((await t.perm.post({ token })).html)
    const code = await t.perm.code(user.email)
    await t.sandbox.store.query("UPDATE step_up_challenges SET expires_at = now() - interval '1 second' WHERE family_id = $1", [claimsOf(user.walletToken).fam])
    const expired = await t.perm.post({ token, challengeId, code })
    expect(expired.status).toBe(400)
    expect(expired.html).toContain('This code has expired or was already used. Start again')
    expect(expired.html).toContain('Start again')
    expect(await t.perm.granted(user.address)).toBe(false)

    // Past the resend countdown, starting again sends a new code.
    await t.sandbox.store.query("UPDATE otp_codes SET created_at = created_at - interval '6 minutes' WHERE destination = $1", [`${user.email} (step-up)`])
    const again = await t.perm.post({ token })
    const next = t.perm.challengeIdIn(again.html)
    const fresh = await t.perm.code(user.email)
    expect((await t.perm.post({ token, challengeId: next, code: fresh })).html).toContain('Permission granted')

    // The used challenge is spent: after the permission is taken again, it grants nothing.
    await t.perm.lock(user.address)
    const reused = await t.perm.post({ token, challengeId: next, code: fresh })
    expect(reused.html).toContain('Start again')
    expect(await t.perm.granted(user.address)).toBe(false)
  })
})

describe('the passkey', () => {
  test('a user with a passkey answers it on the page (its script allowed by hash); the assertion grants', async () => {
    const user = await t.perm.lockedUser('pa-passkey@example.com')
    const authenticator = softwareAuthenticator({ origin: t.sandbox.url })
    const options = (await passkeyStepUp(t.sandbox).options(user)).body.data
    expect((await t.sandbox.post('/api/v2/wallet/passkeys', { credential: authenticator.register(options) }, user.walletToken)).status).toBe(200)
    const token = await t.perm.tokenOf(user.walletToken)
    const before = await t.perm.inboxSize(user.email)

    const asked = await t.perm.post({ token })
    expect(asked.status).toBe(200)
    expect(asked.html).toContain('Use passkey')
    expect(asked.html).toContain('Send a code by e-mail instead')
    const hash = createHash('sha256').update(passkeyScript).digest('base64')
    expect(asked.headers.get('content-security-policy')).toContain(`script-src 'sha256-${hash}'`)
    expect(asked.html).toContain(`<script>${passkeyScript}</script>`)
    expect(await t.perm.inboxSize(user.email)).toBe(before)
    const dataOptions = /data-options="([^"]+)"/.exec(asked.html)![1]!.replaceAll('&quot;', '"').replaceAll('&amp;', '&')
    const credential = authenticator.assert(JSON.parse(dataOptions))
    const answered = await t.perm.post({ token, challengeId: t.perm.challengeIdIn(asked.html), credential: JSON.stringify(credential) })
    expect(answered.html).toContain('Permission granted')
    expect(await t.perm.granted(user.address)).toBe(true)
  })

  test('"Send a code by e-mail instead" asks the code', async () => {
    const user = await t.perm.lockedUser('pa-passkey-mail@example.com')
    const authenticator = softwareAuthenticator({ origin: t.sandbox.url })
    const options = (await passkeyStepUp(t.sandbox).options(user)).body.data
    expect((await t.sandbox.post('/api/v2/wallet/passkeys', { credential: authenticator.register(options) }, user.walletToken)).status).toBe(200)
    const token = await t.perm.tokenOf(user.walletToken)
    await t.sandbox.store.query("UPDATE otp_codes SET created_at = created_at - interval '6 minutes' WHERE destination = $1", [`${user.email} (step-up)`])
    const asked = await t.perm.post({ token, factor: 'email' })
    expect(asked.html).toContain('We sent a code to')
    const granted = await t.perm.post({ token, challengeId: t.perm.challengeIdIn(asked.html), code: await t.perm.code(user.email) })
    expect(granted.html).toContain('Permission granted')
  })
})
