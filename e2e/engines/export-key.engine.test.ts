import { privateKeyToAddress } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { Engine } from './engine.ts'
import { requestedEngines } from './engines.ts'
import { addressPattern, codeField, emailField, logInInFrame, until, urls, useEngine } from './flows.ts'

/**
 * Key export in each engine. Neither Firefox nor WebKit can show that the wallet frame is seen, so
 * the key could never be shown in the frame there: the frame does the step-up (a code by e-mail)
 * and the secure window, a top-level window on the provider origin, fetches the key and shows it.
 */

/** The codes the dev inbox holds for `to`, newest first. */
async function inbox(to: string): Promise<string[]> {
  const res = await fetch(`${urls().providerUrl}/dev/api/inbox?to=${encodeURIComponent(to)}`)
  return ((await res.json()) as { code: string }[]).map((m) => m.code)
}

/** Signs a new user up from the demo page; its e-mail and the address the page shows. */
async function signedUp(engine: Engine): Promise<{ email: string; address: `0x${string}` }> {
  await engine.goto(`${urls().demoOrigin}/demo/`)
  await engine.click('page', 'text=Connect')
  await engine.waitFor('frame', emailField)
  const email = await logInInFrame(engine)
  const address = await until(
    () => engine.text('page', '[data-testid=account]'),
    (text) => addressPattern.test(text),
    'the demo page shows the account',
  )
  return { email, address: address as `0x${string}` }
}

describe.each(requestedEngines())('%s: key export', (name) => {
  const launch = useEngine(name)

  it('the step-up in the frame, the key in the secure window: it derives the wallet, and the frame never holds it', async () => {
    const engine = await launch()
    const shot = (step: string, target: 'page' | 'window' = 'page') => engine.screenshot(target, `export-key-${step}`)
    const { email, address } = await signedUp(engine)
    await engine.run('page', 'window.WalletKit.kit.open("profile")')
    await engine.click('frame', 'text=Export private key›')
    await engine.waitFor('frame', '[data-testid=export-key-risks]')
    const sent = (await inbox(email)).length
    await engine.click('frame', 'text=Send a confirmation code')
    const codes = await until(
      () => inbox(email),
      (list) => list.length > sent,
      'the step-up code in the inbox',
    )
    await engine.type('frame', codeField, codes[0]!)
    await engine.waitFor('frame', '[data-testid=export-key-ready]')
    await shot('offer')

    const before = await engine.windowCount()
    await engine.click('frame', 'text=Show the key in a secure window')
    await engine.waitForWindow()
    expect(await engine.windowCount()).toBe(before + 1)
    expect(await engine.run<string>('window', 'return location.origin')).toBe(urls().providerUrl)
    await engine.waitFor('window', 'text=Reveal', { timeout: 20_000 })
    await engine.waitFor('frame', '[data-testid=secure-window-open]')
    await shot('hidden', 'window')
    await engine.click('window', 'text=Reveal')
    const key = (await engine.text('window', '[data-testid=export-key-value]')) as `0x${string}`
    expect(key).toMatch(/^0x[0-9a-f]{64}$/)
    expect(privateKeyToAddress(key)).toBe(address)
    await shot('shown', 'window')
    expect((await engine.run<string>('frame', 'return document.documentElement.outerHTML')).toLowerCase()).not.toContain(key.slice(2).toLowerCase())
    expect((await engine.run<string>('page', 'return document.documentElement.outerHTML')).toLowerCase()).not.toContain(key.slice(2).toLowerCase())

    // Close: the window goes, the frame says the key is shown nowhere.
    await engine.click('window', 'text=Close')
    await until(
      () => engine.windowCount(),
      (n) => n === before,
      'the secure window closes',
    )
    await engine.waitFor('frame', 'text=Export again')
  })
})
