import { createPublicClient, http, verifyMessage } from 'viem'
import { describe, expect, it } from 'vitest'
import { requestedEngines } from './engines.ts'
import { accounts, addressPattern, confirmInSecureWindow, frameElement, pending, signUp, startRequest, until, urls, useEngine } from './flows.ts'

/**
 * A dapp's whole path in each engine: sign-up in the wallet frame, a message and a transaction
 * confirmed where the kit puts them, a refusal, the session across a reload, disconnect. Neither
 * Firefox nor WebKit has IntersectionObserver v2, so the frame cannot show that it is seen: every
 * confirmation goes to the secure window, a first-party window on the provider origin.
 */
describe.each(requestedEngines())('%s: the dapp path', (name) => {
  const launch = useEngine(name)

  it('connects by e-mail in the frame; signs and sends in the secure window; a refusal is 4001; a reload keeps the session; disconnect empties the accounts', async () => {
    const engine = await launch()
    const shot = (step: string, target: 'page' | 'window' = 'page') => engine.screenshot(target, `dapp-${step}`)
    const address = await signUp(engine, 'dapp')
    await shot('connected')
    expect(await accounts(engine)).toEqual([address])

    // personal_sign: the frame shows the message, but its Confirm is the secure window's.
    const signing = startRequest(engine, 'personal_sign', ['0x68656c6c6f', address])
    await engine.waitFor('frame', 'text=Sign Message')
    expect(await engine.text('frame', '[data-testid=confirm-message]')).toBe('hello')
    await engine.waitFor('frame', 'text=Open secure window')
    await engine.waitFor('frame', 'text=Confirm', { hidden: true, timeout: 1_000 })
    await shot('sign-in-frame')
    const windowsBefore = await engine.windowCount()
    await engine.click('frame', 'text=Open secure window')
    await engine.waitForWindow()
    expect(await engine.windowCount()).toBe(windowsBefore + 1)
    expect(await engine.run<string>('window', 'return location.origin')).toBe(urls().providerUrl)
    expect(await engine.text('window', '[data-testid=confirm-origin]')).toBe(urls().demoOrigin)
    expect(await engine.text('window', '[data-testid=confirm-message]')).toBe('hello')
    await shot('sign-secure-window', 'window')
    await engine.click('window', 'text=Confirm')
    const signed = await signing
    expect(signed.result).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await verifyMessage({ address, message: 'hello', signature: signed.result as `0x${string}` })).toBe(true)
    await until(
      () => engine.windowCount(),
      (n) => n === windowsBefore,
      'the secure window closes itself',
    )

    // eth_sendTransaction: confirmed in the secure window, mined on the local chain.
    const to = '0x000000000000000000000000000000000000bEEF'
    const sending = startRequest(engine, 'eth_sendTransaction', [{ from: address, to, value: '0x1' }])
    await engine.waitFor('frame', 'text=Confirm Transaction')
    await shot('send-in-frame')
    expect(await pending(sending)).toBe(true)
    await confirmInSecureWindow(engine, 'dapp-send')
    const sent = await sending
    expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/)
    const chain = createPublicClient({ transport: http(`${urls().providerUrl}/rpc/31337`) })
    const receipt = await chain.waitForTransactionReceipt({ hash: sent.result as `0x${string}` })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())
    expect(receipt.to?.toLowerCase()).toBe(to.toLowerCase())

    // Refused in the frame: 4001, and nothing signed.
    const refused = startRequest(engine, 'personal_sign', ['0x6869', address])
    await engine.waitFor('frame', 'text=Sign Message')
    await engine.click('frame', 'text=Reject')
    expect(await refused).toMatchObject({ code: 4001 })
    await engine.waitFor('page', frameElement, { hidden: true })

    // A reload: the frame restores the session (storage partitioned under the demo's site).
    await engine.reload()
    await until(
      () => accounts(engine),
      (list) => list?.[0] === address,
      'eth_accounts after the reload',
    )
    expect(
      await until(
        () => engine.text('page', '[data-testid=account]'),
        (text) => addressPattern.test(text),
        'the account shown',
      ),
    ).toBe(address)
    await shot('reloaded')

    // Disconnect from the profile: the page and the provider have no account.
    await engine.run('page', `window.WalletKit.kit.open('profile')`)
    await engine.click('frame', 'text=Disconnect Wallet')
    await until(
      () => engine.text('page', '[data-testid=account]'),
      (text) => text === '—',
      'the page shows no account',
    )
    expect(await accounts(engine)).toEqual([])
    await shot('disconnected')
    await engine.reload()
    expect(
      await until(
        () => accounts(engine),
        (list) => Array.isArray(list),
        'eth_accounts after the second reload',
      ),
    ).toEqual([])
  })
})
