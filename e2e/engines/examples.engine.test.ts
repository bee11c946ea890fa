import { verifyMessage } from 'viem'
import { describe, expect, it } from 'vitest'
import { requestedEngines } from './engines.ts'
import { addressPattern, confirmInSecureWindow, emailField, frameElement, logInInFrame, startRequest, until, urls, useEngine } from './flows.ts'

/** The React wrapper's example and the `<wallet-kit>` element's, each mounted, connected and used. */
describe.each(requestedEngines())('%s: the React and element examples', (name) => {
  const launch = useEngine(name)

  it('the React example: one frame under StrictMode; connect, sign, disconnect', async () => {
    const engine = await launch()
    await engine.goto(`${urls().demoOrigin}/react/`)
    expect(
      await until(
        () => engine.text('page', '[data-testid=status]'),
        (s) => s === 'disconnected',
        'the status',
      ),
    ).toBe('disconnected')
    expect(await engine.run<number>('page', `return document.querySelectorAll(args[0]).length`, frameElement)).toBe(1)
    await engine.screenshot('page', 'react-mounted')
    await engine.click('page', 'text=Connect')
    await engine.waitFor('frame', emailField)
    await logInInFrame(engine)
    await until(
      () => engine.text('page', '[data-testid=status]'),
      (s) => s === 'connected',
      'the status',
    )
    const address = (await engine.text('page', '[data-testid=address]')) as `0x${string}`
    expect(address).toMatch(addressPattern)
    expect(
      await until(
        () => engine.text('page', '[data-testid=chain]'),
        (s) => s !== '—',
        'the chain',
      ),
    ).toBe('31337')
    await until(
      () => engine.text('page', '[data-testid=balance]'),
      (s) => s.endsWith(' ETH'),
      'the balance',
    )
    // ConnectButton shows the short address and the balance.
    const connectButton = `return [...document.querySelectorAll('button')].map((b) => b.textContent.trim()).find((t) => t.startsWith(args[0])) ?? null`
    const short = `${address.slice(0, 6)}…${address.slice(-4)}`
    expect(
      await until(
        () => engine.run<string | null>('page', connectButton, short),
        (t) => t !== null,
        'the ConnectButton with the address',
      ),
    ).toMatch(/ ETH$/)
    await engine.screenshot('page', 'react-connected')

    await engine.click('page', 'text=Sign message')
    await engine.waitFor('frame', 'text=Sign Message')
    await confirmInSecureWindow(engine, 'react-sign')
    const signature = await until(
      () => engine.text('page', '[data-testid=signature]'),
      (s) => /^0x[0-9a-f]{130}$/.test(s),
      'the signature',
    )
    // The example signs 'hi' (0x6869).
    expect(await verifyMessage({ address, message: 'hi', signature: signature as `0x${string}` })).toBe(true)

    await engine.click('page', 'text=Disconnect')
    await until(
      () => engine.text('page', '[data-testid=status]'),
      (s) => s === 'disconnected',
      'the status after disconnect',
    )
    await engine.screenshot('page', 'react-disconnected')
  })

  it('the <wallet-kit> element: its shadow-root button connects; the events and .provider follow; the profile disconnects', async () => {
    const engine = await launch()
    await engine.goto(`${urls().demoOrigin}/element/`)
    const shadowButton = `const root = document.querySelector('wallet-kit').shadowRoot
      const button = root && root.querySelector('button')
      return button ? button.textContent.trim() : null`
    expect(
      await until(
        () => engine.run<string | null>('page', shadowButton),
        (t) => t === 'Connect',
        'the element’s Connect button',
      ),
    ).toBe('Connect')
    expect(await engine.run<boolean>('page', `return 'React' in window`)).toBe(false)
    await engine.screenshot('page', 'element-mounted')
    // Inside the element's shadow root, which selectors do not reach: the page clicks it.
    await engine.run('page', `document.querySelector('wallet-kit').shadowRoot.querySelector('button').click(); return true`)
    await engine.waitFor('frame', emailField)
    await logInInFrame(engine)
    const label = await until(
      () => engine.run<string | null>('page', shadowButton),
      (t) => /^0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}/.test(t ?? ''),
      'the short address',
    )
    const address = (await engine.run<string[]>('page', `return document.querySelector('wallet-kit').provider.request({ method: 'eth_accounts' })`))[0]!
    expect(label).toContain(`${address.slice(0, 6)}…${address.slice(-4)}`)
    await until(
      () => engine.text('page', '[data-testid=events]'),
      (t) => t.includes(`accountschanged ["${address}"]`),
      'the accountschanged event',
    )
    expect(await engine.run<boolean>('page', `return document.querySelector('wallet-kit').provider === window.WalletKit.kit.provider`)).toBe(true)
    await engine.screenshot('page', 'element-connected')

    const signing = startRequest(engine, 'personal_sign', ['0x6869', address])
    await engine.waitFor('frame', 'text=Sign Message')
    await confirmInSecureWindow(engine, 'element-sign')
    const signature = (await signing).result as `0x${string}`
    expect(await verifyMessage({ address: address as `0x${string}`, message: 'hi', signature })).toBe(true)

    await engine.run('page', `document.querySelector('wallet-kit').shadowRoot.querySelector('button').click(); return true`)
    await engine.click('frame', 'text=Disconnect Wallet')
    await until(
      () => engine.run<string | null>('page', shadowButton),
      (t) => t === 'Connect',
      'the element’s Connect button again',
    )
    await until(
      () => engine.text('page', '[data-testid=events]'),
      (t) => t.includes('accountschanged []'),
      'the accountschanged [] event',
    )
    await engine.screenshot('page', 'element-disconnected')
  })
})
