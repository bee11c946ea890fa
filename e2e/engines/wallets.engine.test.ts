import { describe, expect, it } from 'vitest'
import { requestedEngines } from './engines.ts'
import { accounts, addressPattern, frameElement, until, urls, useEngine } from './flows.ts'

/**
 * The connect modal's wallet list: a mobile wallet's link is opened from the frame itself on the
 * user's tap ('Open in Browser' in a new tab; on a phone, the app's own scheme toward the top page),
 * never handed to the host page (it carries the pairing's key).
 */
describe.each(requestedEngines())('%s: the wallet list', (name) => {
  const launch = useEngine(name)

  it("'Open in Browser' opens the sandbox wallet on the pairing URI; its approval connects the page", async () => {
    const engine = await launch()
    await engine.goto(`${urls().demoOrigin}/demo/`)
    await engine.click('page', 'text=Connect')
    await engine.click('frame', 'text=More Options')
    await engine.waitFor('frame', 'text=WalletConnect')
    await engine.screenshot('page', 'wallet-list')
    await engine.click('frame', 'text=Sandbox Wallet')
    await engine.waitFor('frame', 'text=Scan QR Code')
    await engine.waitFor('frame', '[data-testid=pairing-qr] svg')
    const href = await engine.run<string>('frame', `return document.querySelector('[data-testid=open-in-browser]').href`)
    const link = new URL(href)
    expect(`${link.origin}${link.pathname}`).toMatch(new RegExp(`^${urls().providerUrl}/dev/wallet/?$`))
    expect(link.searchParams.get('uri')).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    await engine.screenshot('page', 'wallet-list-qr')

    const windows = await engine.windowCount()
    await engine.click('frame', 'text=Open in Browser')
    await engine.waitForWindow()
    expect(await engine.windowCount()).toBe(windows + 1)
    // A new tab without a handle back to the frame (rel=noopener), on the pairing URI the QR holds.
    const opened = new URL(await engine.run<string>('window', 'return location.href'))
    expect(opened.origin).toBe(urls().providerUrl)
    expect(opened.searchParams.get('uri')).toBe(link.searchParams.get('uri'))
    expect(await engine.run<boolean>('window', 'return window.opener === null')).toBe(true)
    await engine.waitFor('window', 'body[data-ready=true]', { timeout: 30_000 })
    const address = await until(
      () => engine.text('window', '[data-testid=wallet-address]'),
      (text) => addressPattern.test(text),
      'the sandbox wallet shows its address',
    )
    await engine.waitFor('window', '[data-testid=proposal]', { timeout: 20_000 })
    await engine.screenshot('window', 'wallet-list-sandbox-wallet')
    await engine.click('window', '[data-testid=proposal] button')
    await until(
      () => accounts(engine),
      (list) => list?.[0] === address,
      'the page gets the wallet’s account',
      30_000,
    )
    await engine.waitFor('page', frameElement, { hidden: true })
    expect(await engine.text('page', '[data-testid=account]')).toBe(address)
  })

  it("on a phone, a mobile wallet's QR page offers its app link, to open toward the top page", async () => {
    const engine = await launch()
    // A phone's width; WebKit's MiniBrowser stops at 447 px, still the kit's phone layout (under 480 px).
    const viewport = await engine.setViewport(390, 844)
    expect(viewport.width).toBeLessThan(480)
    await engine.goto(`${urls().demoOrigin}/demo/`)
    await engine.click('page', 'text=Connect')
    await engine.click('frame', 'text=More Options')
    await engine.click('frame', 'text=MetaMask')
    await engine.waitFor('frame', '[data-testid=pairing-qr] svg')
    await engine.waitFor('frame', 'text=Open MetaMask')
    const open = await engine.run<{ href: string; target: string }>(
      'frame',
      `const a = [...document.querySelectorAll('a')].find((a) => a.textContent.trim() === 'Open MetaMask'); return { href: a.href, target: a.target }`,
    )
    expect(open.target).toBe('_top')
    const link = new URL(open.href)
    expect(link.protocol).toBe('metamask:')
    expect(link.searchParams.get('uri')).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    await engine.screenshot('page', 'wallet-list-phone-app-link')
  })
})
