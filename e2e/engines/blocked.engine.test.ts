import { verifyMessage } from 'viem'
import { describe, expect, it } from 'vitest'
import { requestedEngines } from './engines.ts'
import { pending, signUp, startRequest, until, useEngine } from './flows.ts'

/**
 * A popup blocker in the wallet frame: window.open answers null and opens nothing (as a blocker
 * does; the frame's own click would otherwise pass any engine's default blocker). Kept aside so the
 * retry can find it allowed again, as when the user allows pop-ups for the site meanwhile.
 */
const blockPopups = `window.__allowedOpen = window.open; window.open = () => null; return true`
const allowPopups = `window.open = window.__allowedOpen; return true`

describe.each(requestedEngines())('%s: a blocked secure window', (name) => {
  const launch = useEngine(name)

  it('is explained in the frame with a retry; the retry, once allowed, opens the window and signs', async () => {
    const engine = await launch()
    const address = await signUp(engine)
    await engine.run('frame', blockPopups)
    const windows = await engine.windowCount()
    const signing = startRequest(engine, 'personal_sign', ['0x6869', address])
    await engine.click('frame', 'text=Open secure window')
    expect(await engine.text('frame', '[data-testid=secure-window-blocked]')).toMatch(/blocked the secure window/)
    await engine.screenshot('page', 'blocked-explained')
    expect(await engine.windowCount()).toBe(windows)
    expect(await pending(signing)).toBe(true)

    // Still blocked: the retry is explained again, and nothing hangs.
    await engine.click('frame', 'text=Try again')
    await engine.waitFor('frame', '[data-testid=secure-window-blocked]', { timeout: 10_000 })
    expect(await engine.windowCount()).toBe(windows)

    // Allowed now: the retry opens the window, which signs.
    await engine.run('frame', allowPopups)
    await engine.click('frame', 'text=Try again')
    await engine.waitForWindow()
    await engine.waitFor('frame', '[data-testid=secure-window-blocked]', { hidden: true })
    expect(await engine.text('window', '[data-testid=confirm-message]')).toBe('hi')
    await engine.screenshot('window', 'blocked-retry-window')
    await engine.click('window', 'text=Confirm')
    const signature = (await signing).result as `0x${string}`
    expect(await verifyMessage({ address, message: 'hi', signature })).toBe(true)
    await until(
      () => engine.windowCount(),
      (n) => n === windows,
      'the secure window closes itself',
    )
  })

  it('rejected from the blocked state: 4001', async () => {
    const engine = await launch()
    const address = await signUp(engine)
    await engine.run('frame', blockPopups)
    const signing = startRequest(engine, 'personal_sign', ['0x6869', address])
    await engine.click('frame', 'text=Open secure window')
    await engine.waitFor('frame', '[data-testid=secure-window-blocked]', { timeout: 10_000 })
    await engine.click('frame', 'text=Reject')
    expect(await signing).toMatchObject({ code: 4001 })
  })
})
