import { describe, expect, it } from 'vitest'
import { securityText } from '../../widget/profile/security/security-text.ts'
import { codeField, emailField, logInInFrame, until, urls, useEngine } from './flows.ts'
import { requestedEngines } from './engines.ts'
import { inboxCodes, nextCode } from './trust.ts'

/**
 * The profile's Security page in each engine, on the seeded 'demo' app (which asks no code itself):
 * the user's own amount on Local Chain 1 is saved at once when it is stricter; a looser one takes
 * the e-mail code first, typed in the frame (a user without a passkey), and is saved only then.
 */

const text = securityText.en
const row = '[data-testid=security-31337]'

describe.each(requestedEngines())('%s: the Security page', (name) => {
  const launch = useEngine(name)

  it('a stricter amount saves at once; a looser one asks the e-mail code in the frame, then saves', async () => {
    const engine = await launch()
    await engine.goto(`${urls().demoOrigin}/demo/`)
    await engine.click('page', 'text=Connect')
    await engine.waitFor('frame', emailField)
    const email = await logInInFrame(engine)
    await engine.run('page', 'window.WalletKit.kit.open("profile")')
    await engine.click('frame', 'text=Security›')
    await engine.waitFor('frame', row)
    const rule = () => engine.text('frame', `${row} .wk-text`)
    const saved = (amount: string) => until(rule, (shown) => shown === text.asksAbove(`${amount} ETH`), `the page says it asks above ${amount} ETH`)
    expect(await rule()).toBe(text.neverAsks)

    // Stricter than none: saved at once, no code sent.
    const seen = (await inboxCodes(email)).length
    await engine.type('frame', `${row} input`, '0.001')
    await engine.click('frame', `text=${text.save}`)
    await saved('0.001')
    expect(await engine.text('frame', '[data-testid=security] [role=status]')).toBe(text.saved)
    expect((await inboxCodes(email)).length).toBe(seen)
    await engine.screenshot('page', 'security-stricter')

    // Looser (the field's 0.001 becomes 0.0019): the code first, and the amount stays until it is typed.
    await engine.type('frame', `${row} input`, '9')
    await engine.click('frame', `text=${text.save}`)
    await engine.waitFor('frame', codeField)
    const says = 'const [words] = args\nreturn [...document.querySelectorAll("p.wk-text")].some((p) => p.textContent === words)'
    expect(await engine.run<boolean>('frame', says, text.looserWhy)).toBe(true)
    await engine.screenshot('page', 'security-looser-code')
    const code = await nextCode(email, seen)
    await engine.type('frame', codeField, code)
    await saved('0.0019')
  })
})
