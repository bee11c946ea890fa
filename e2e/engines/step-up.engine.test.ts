import { createPublicClient, http, parseEther, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Engine } from './engine.ts'
import { requestedEngines } from './engines.ts'
import { accounts, codeField, confirmInSecureWindow, emailField, logInInFrame, pending, startRequest, until, urls, useEngine } from './flows.ts'
import { confirmText } from '../../widget/confirm/confirm-text.ts'
import { transactionStepUpText } from '../../widget/confirm/transaction-step-up-text.ts'
import { hostLog, inboxCodes, nextCode, recordedKit, steady } from './trust.ts'

/**
 * A second factor before value leaves, in each engine: the seeded 'stepup' app asks a confirmation
 * code (by e-mail) for a transaction above 0.01 ETH on chain 31337. Neither engine can prove the
 * frame is seen, so the transaction is confirmed in the secure window; the service then asks for
 * the step-up, and the code is typed in the wallet frame's confirmation, which stays open behind it.
 */

const to = '0x000000000000000000000000000000000000bEEF'
const step = '[data-testid=confirm-step-up]'

/** The shown Confirm and Reject buttons of the frame, each said to be inside the code step or not. */
const shownChoices = `const [step] = args
return [...document.querySelectorAll('button')]
  .filter((b) => b.getClientRects().length > 0 && ['Confirm', 'Reject'].includes(b.textContent.trim()))
  .map((b) => (b.closest(step) ? 'in step: ' : 'outside: ') + b.textContent.trim())
  .sort()`

/** The labels of the window's enabled buttons. */
const enabledButtons = `return [...document.querySelectorAll('button')].filter((b) => !b.disabled).map((b) => b.textContent.trim())`

/** Confirms the transaction the frame shows in the secure window, then waits for the code step in the frame. */
async function confirmUntilCode(engine: Engine, shots: string): Promise<number> {
  await engine.waitFor('frame', 'text=Confirm Transaction')
  const before = await engine.windowCount()
  await engine.click('frame', 'text=Open secure window')
  await engine.waitForWindow()
  await engine.waitFor('window', 'text=Confirm')
  await engine.click('window', 'text=Confirm')
  await engine.waitFor('frame', `${step} ${codeField}`, { timeout: 20_000 })
  // What the secure window does meanwhile: it stays open on its confirmation, with no button to press
  // (nothing there can be pressed twice) and a notice that the page asks the code, until the frame's
  // code step settles; then it closes itself.
  expect(await engine.windowCount()).toBe(before + 1)
  await engine.waitFor('window', '[data-testid=confirm-step-up-on-page]')
  expect(await engine.text('window', '[data-testid=confirm-step-up-on-page]')).toBe(confirmText.en.stepUpOnPage)
  expect(await engine.run<string[]>('window', enabledButtons)).toEqual([])
  await engine.screenshot('window', `${shots}-secure-window-waiting`)
  await engine.screenshot('page', `${shots}-code`)
  expect(await engine.text('frame', `${step} .wk-text`)).toBe(transactionStepUpText.en.why)
  // The code step stands in for the confirmation's own buttons: one Reject and one Confirm, both the step's.
  expect(await engine.run<string[]>('frame', shownChoices, step)).toEqual(['in step: Confirm', 'in step: Reject'])
  return before
}

describe.each(requestedEngines())('%s: step-up before a large transaction', (name) => {
  const launch = useEngine(name)

  it('below the threshold sends as before; above it the code is asked in the frame, a wrong code sends nothing, the right one sends; Reject at the code step is 4001', async () => {
    const engine = await launch()
    const chain = createPublicClient({ transport: http(`${urls().providerUrl}/rpc/31337`) })
    await recordedKit(engine, 'stepup')
    await engine.run('page', `window.WalletKit.kit.open('connect')`)
    await steady(engine, emailField)
    const email = await logInInFrame(engine)
    const [address] = (await accounts(engine)) as `0x${string}`[]
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)

    // 0.005 ETH: the secure window's Confirm sends it, no code asked.
    const seenBeforeSmall = (await inboxCodes(email)).length
    const small = startRequest(engine, 'eth_sendTransaction', [{ from: address, to, value: toHex(parseEther('0.005')) }])
    await engine.waitFor('frame', 'text=Confirm Transaction')
    await confirmInSecureWindow(engine, 'step-up-small')
    const sentSmall = await small
    expect(sentSmall.result).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await chain.waitForTransactionReceipt({ hash: sentSmall.result as `0x${string}` })).status).toBe('success')
    expect((await inboxCodes(email)).length).toBe(seenBeforeSmall)

    // 0.05 ETH: confirmed in the secure window, then the code step in the frame; nothing is sent yet.
    const nonce = await chain.getTransactionCount({ address: address! })
    const seen = (await inboxCodes(email)).length
    const large = startRequest(engine, 'eth_sendTransaction', [{ from: address, to, value: toHex(parseEther('0.05')) }])
    const windows = await confirmUntilCode(engine, 'step-up-large')
    const code = await nextCode(email, seen)
    await engine.type('frame', `${step} ${codeField}`, code === '000000' ? '111111' : '000000')
    expect(await engine.text('frame', `${step} [role=alert]`)).toBe('Invalid OTP')
    await engine.screenshot('page', 'step-up-large-wrong-code')
    expect(await pending(large)).toBe(true)
    expect(await chain.getTransactionCount({ address: address! })).toBe(nonce)

    await engine.type('frame', `${step} ${codeField}`, code)
    const sentLarge = await large
    expect(sentLarge.result).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = await chain.waitForTransactionReceipt({ hash: sentLarge.result as `0x${string}` })
    expect(receipt.status).toBe('success')
    expect((await chain.getTransaction({ hash: receipt.transactionHash })).value).toBe(parseEther('0.05'))
    await until(
      () => engine.windowCount(),
      (count) => count === windows,
      'the secure window closes once sent',
    )
    expect(await chain.getTransactionCount({ address: address! })).toBe(nonce + 1)

    // Another large one, refused at the code step: 4001, nothing sent.
    const seenAgain = (await inboxCodes(email)).length
    const refused = startRequest(engine, 'eth_sendTransaction', [{ from: address, to, value: toHex(parseEther('0.02')) }])
    const windowsThen = await confirmUntilCode(engine, 'step-up-refused')
    await nextCode(email, seenAgain)
    await engine.click('frame', 'text=Reject')
    expect(await refused).toEqual({ code: 4001, message: 'Transaction rejected by user' })
    await until(
      () => engine.windowCount(),
      (count) => count === windowsThen,
      'the secure window closes once refused',
    )
    expect(await chain.getTransactionCount({ address: address! })).toBe(nonce + 1)

    // The codes stay in the wallet: none crossed to the page.
    const log = await hostLog(engine)
    expect(log.some((line) => line.includes(sentLarge.result as string))).toBe(true)
    expect(log.filter((line) => line.includes(`"${code}"`))).toEqual([])
  })
})
