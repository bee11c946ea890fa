import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { createConfirmations } from './confirmation.ts'
import { ask as askOnHost, outcome } from './confirmations.fixture.ts'
import { alice, testWallet } from './wallet.fixture.ts'

// Requests for an account that confirms on its own device (a WalletConnect wallet): shown with
// 'Confirm in your wallet', sent at once, answered by the wallet; the frame has no Confirm of its own.

const ask = (run: () => Promise<unknown>) => askOnHost(run, { onDevice: true })
/** A request the wallet answers when the test says. */
function deferred() {
  let settle!: { resolve(v: unknown): void; reject(e: unknown): void }
  const promise = new Promise((resolve, reject) => (settle = { resolve, reject }))
  return { promise, ...settle }
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

test('sent to the wallet as soon as it is shown; Confirm does nothing; the answer closes it; the next one waits its turn', async () => {
  const { wallet } = testWallet()
  await wallet.restore()
  wallet.connectedRemotely({ address: alice.address, peer: 'Phone' })
  const c = createConfirmations(wallet)
  const answers = [deferred(), deferred()]
  let sent = 0
  const first = outcome(c.request(ask(() => answers[sent++]!.promise)))
  const second = outcome(c.request(ask(() => answers[sent++]!.promise)))
  expect(wallet.ui.get().confirmation).toMatchObject({ status: 'wallet', onDevice: true })
  expect(sent).toBe(1)
  await c.confirm()
  expect(sent).toBe(1)
  answers[0]!.resolve('0xsig1')
  await vi.advanceTimersByTimeAsync(0)
  expect(await first).toEqual({ result: '0xsig1' })
  expect(sent).toBe(2)
  answers[1]!.resolve('0xsig2')
  expect(await second).toEqual({ result: '0xsig2' })
})

test("the wallet's refusal (WalletConnect's 5000, or 4001) is 4001 with the spec message", async () => {
  const { wallet } = testWallet()
  await wallet.restore()
  wallet.connectedRemotely({ address: alice.address, peer: 'Phone' })
  const c = createConfirmations(wallet)
  for (const code of [5000, 4001]) {
    const answer = outcome(c.request(ask(() => Promise.reject({ code, message: 'User rejected.' }))))
    expect(await answer).toEqual({ code: 4001, message: 'Message signing rejected by user' })
  }
  expect(wallet.ui.get().confirmation).toBeNull()
})

test('another failure is shown and Close answers it with that failure; while the wallet decides, neither Reject nor closing answers it: only the wallet does', async () => {
  const { wallet } = testWallet()
  await wallet.restore()
  wallet.connectedRemotely({ address: alice.address, peer: 'Phone' })
  const c = createConfirmations(wallet)
  const failing = outcome(c.request(ask(() => Promise.reject(new Error('relay gone')))))
  await vi.advanceTimersByTimeAsync(0)
  expect(wallet.ui.get().confirmation).toMatchObject({ status: 'error', error: 'Failed to sign message: relay gone' })
  c.reject()
  expect(await failing).toEqual({ code: -32603, message: 'Failed to sign message: relay gone' })

  const late = deferred()
  let answered = false
  const waiting = outcome(c.request(ask(() => late.promise))).finally(() => (answered = true))
  c.reject()
  c.rejectAll()
  wallet.close()
  await vi.advanceTimersByTimeAsync(0)
  expect(answered).toBe(false)
  expect(wallet.ui.get().confirmation?.status).toBe('wallet')
  late.resolve('0xlate')
  expect(await waiting).toEqual({ result: '0xlate' })
  expect(wallet.ui.get().confirmation).toBeNull()
})

test('the wallet ending the session, or switching accounts, answers what it held with 4900 and closes the modal', async () => {
  const { wallet } = testWallet()
  await wallet.restore()
  wallet.connectedRemotely({ address: alice.address, peer: 'Phone' })
  const c = createConfirmations(wallet)
  const held = outcome(c.request(ask(() => new Promise(() => {}))))
  const behind = outcome(c.request(ask(() => new Promise(() => {}))))
  expect(wallet.ui.get().confirmation?.status).toBe('wallet')
  wallet.connectedRemotely({ address: '0x000000000000000000000000000000000000dEaD', peer: 'Phone' })
  expect(await held).toMatchObject({ code: 4900 })
  expect(await behind).toMatchObject({ code: 4900 })
  expect(wallet.ui.get().view).toBeNull()

  wallet.connectedRemotely({ address: alice.address, peer: 'Phone' })
  const again = outcome(c.request(ask(() => new Promise(() => {}))))
  wallet.remoteEnded()
  expect(await again).toMatchObject({ code: 4900 })
  expect(wallet.ui.get().session).toBeNull()
})
