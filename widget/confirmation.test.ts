import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { SdkError } from '../sdk/index.ts'
import { createConfirmations } from './confirmation.ts'
import { ask, outcome, payload } from './confirmations.fixture.ts'
import { alice, testWallet } from './wallet.fixture.ts'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('confirmations', () => {
  test('shown with closing disabled, confirmed, closed 500 ms after success; the next one waits its turn', async () => {
    const { wallet, visible } = testWallet({ session: alice })
    await wallet.restore()
    const c = createConfirmations(wallet)
    const first = outcome(c.request(ask(async () => '0xsig1')))
    const second = outcome(c.request(ask(async () => '0xsig2')))
    expect(wallet.ui.get().view).toBe('transaction_confirmation')
    const firstId = wallet.ui.get().confirmation!.id
    await c.confirm()
    expect(wallet.ui.get().confirmation?.status).toBe('success')
    await vi.advanceTimersByTimeAsync(499)
    expect(wallet.ui.get().confirmation?.id).toBe(firstId)
    await vi.advanceTimersByTimeAsync(1)
    expect(await first).toEqual({ result: '0xsig1' })
    expect(wallet.ui.get().confirmation?.id).toBe(firstId + 1)
    await c.confirm()
    await vi.advanceTimersByTimeAsync(500)
    expect(await second).toEqual({ result: '0xsig2' })
    expect(wallet.ui.get().view).toBeNull()
    expect(visible).toEqual([true, false])
  })

  test('Reject answers 4001 with the spec message and runs nothing', async () => {
    const { wallet } = testWallet({ session: alice })
    const run = vi.fn(async () => '0x')
    const c = createConfirmations(wallet)
    const answer = outcome(c.request(ask(run)))
    c.reject()
    expect(await answer).toEqual({ code: 4001, message: 'Message signing rejected by user' })
    expect(run).not.toHaveBeenCalled()
    expect(wallet.ui.get().view).toBeNull()
  })

  test('a failure shows the error and offers Try Again; Close then answers that failure', async () => {
    const { wallet } = testWallet({ session: alice })
    await wallet.restore()
    const afterFailure = vi.fn(async () => {})
    const c = createConfirmations(wallet, { afterFailure })
    let attempts = 0
    const answer = outcome(
      c.request(
        ask(async () => {
          attempts++
          throw new SdkError('node is down', { code: '500' })
        }),
      ),
    )
    await c.confirm()
    expect(wallet.ui.get().confirmation).toMatchObject({ status: 'error', error: 'Failed to sign message: node is down' })
    expect(afterFailure).toHaveBeenCalledTimes(1)
    await c.confirm() // Try Again
    expect(attempts).toBe(2)
    c.reject() // Close
    expect(await answer).toEqual({ code: -32603, message: 'Failed to sign message: node is down' })
  })

  test('Try Again can succeed', async () => {
    const { wallet } = testWallet({ session: alice })
    await wallet.restore()
    const c = createConfirmations(wallet)
    let attempts = 0
    const answer = outcome(c.request(ask(async () => (++attempts === 1 ? Promise.reject(new Error('flaky')) : '0xok'))))
    await c.confirm()
    await c.confirm()
    await vi.advanceTimersByTimeAsync(500)
    expect(await answer).toEqual({ result: '0xok' })
  })

  test('407 from the service opens the need-permission modal with the accept page and refreshes the token; later requests go there at once', async () => {
    const { wallet } = testWallet({ session: alice })
    await wallet.restore()
    // A signing failure refreshes the token, a 407 too.
    const afterFailure = vi.fn(async () => {})
    const c = createConfirmations(wallet, { afterFailure })
    const refusal = new SdkError('Permission needed', {
      code: '403',
      details: { status: 407, data: { isPermissionGranted: false, acceptPermissionPage: 'http://localhost:8787/permission/accept?token=t' } },
    })
    const answer = outcome(c.request(ask(() => Promise.reject(refusal))))
    const behind = outcome(c.request(ask(async () => '0x')))
    await c.confirm()
    expect(await answer).toMatchObject({ code: 4100 })
    expect(await behind).toMatchObject({ code: 4100 })
    expect(afterFailure).toHaveBeenCalledTimes(1)
    expect(wallet.ui.get().queued).toBe(0)
    expect(wallet.ui.get().view).toBe('need_permission')
    expect(wallet.ui.get().account).toEqual({ isPermissionGranted: false, acceptPermissionPage: 'http://localhost:8787/permission/accept?token=t' })
    const run = vi.fn(async () => '0x')
    expect(await outcome(c.request(ask(run)))).toMatchObject({ code: 4100 })
    expect(run).not.toHaveBeenCalled()
  })

  test('closing the modal from the host rejects everything pending with 4001', async () => {
    const { wallet } = testWallet({ session: alice })
    const c = createConfirmations(wallet)
    const a = outcome(c.request(ask(async () => '0x')))
    const b = outcome(c.request(ask(async () => '0x')))
    wallet.close()
    expect(await a).toMatchObject({ code: 4001 })
    expect(await b).toMatchObject({ code: 4001 })
    expect(wallet.ui.get().confirmation).toBeNull()
  })
})

test('the modal cannot be closed while a confirmed request is being carried out', async () => {
  vi.useRealTimers()
  const { wallet } = testWallet({ session: alice })
  await wallet.restore()
  const c = createConfirmations(wallet)
  let finish: (v: string) => void = () => {}
  const answer = outcome(c.request(ask(() => new Promise<string>((r) => (finish = r)))))
  const confirming = c.confirm()
  wallet.close()
  expect(wallet.ui.get().view).toBe('transaction_confirmation')
  finish('0xsig')
  await confirming
  await new Promise((r) => setTimeout(r, 550))
  expect(await answer).toEqual({ result: '0xsig' })
  expect(wallet.ui.get().view).toBeNull()
})

test('a request shown for one account is not signed after another tab switched to another account', async () => {
  const { wallet, remote } = testWallet({ session: alice })
  await wallet.restore()
  const c = createConfirmations(wallet)
  const run = vi.fn(async () => '0xsig')
  const answer = outcome(c.request(ask(run)))
  remote({ ...alice, address: '0x000000000000000000000000000000000000b0b0', token: 'bob', expiresAt: Date.now() + 1000 })
  expect(await answer).toMatchObject({ code: 4001 })
  expect(wallet.ui.get().view).toBeNull()
  expect(run).not.toHaveBeenCalled()
})

describe('flooding', () => {
  test(`at most ${10} requests wait per page; the next ones fail at once with -32005 and run nothing`, async () => {
    const { wallet } = testWallet({ session: alice })
    await wallet.restore()
    const c = createConfirmations(wallet)
    const run = vi.fn(async () => '0x')
    const queued = Array.from({ length: 10 }, () => outcome(c.request(ask(run))))
    const refused = await Promise.all(Array.from({ length: 5 }, () => outcome(c.request(ask(run)))))
    for (const r of refused) expect(r).toEqual({ code: -32005, message: expect.stringContaining('10 requests') })
    expect(wallet.ui.get().queued).toBe(9)
    c.rejectAll()
    for (const answer of await Promise.all(queued)) expect(answer).toEqual({ code: 4001, message: 'Message signing rejected by user' })
    expect(run).not.toHaveBeenCalled()
    expect(wallet.ui.get()).toMatchObject({ view: null, confirmation: null, queued: 0 })
    // Room again once the user has answered.
    const again = outcome(c.request(ask(async () => '0xok')))
    expect(wallet.ui.get().queued).toBe(0)
    await c.confirm()
    await vi.advanceTimersByTimeAsync(500)
    expect(await again).toEqual({ result: '0xok' })
  })

  test('Reject all leaves a request that is being carried out alone', async () => {
    const { wallet } = testWallet({ session: alice })
    await wallet.restore()
    const c = createConfirmations(wallet)
    let finish: (v: string) => void = () => {}
    const first = outcome(c.request(ask(() => new Promise<string>((r) => (finish = r)))))
    const second = outcome(c.request(ask(async () => '0x2')))
    const confirming = c.confirm()
    c.rejectAll()
    expect(await second).toEqual({ code: 4001, message: 'Message signing rejected by user' })
    expect(wallet.ui.get().confirmation?.status).toBe('loading')
    finish('0x1')
    await confirming
    await vi.advanceTimersByTimeAsync(500)
    expect(await first).toEqual({ result: '0x1' })
    expect(wallet.ui.get().view).toBeNull()
  })

  test('a request that needs a look-up first (a fee estimate) keeps its place; its failure answers it with no modal', async () => {
    const { wallet, visible } = testWallet({ session: alice })
    await wallet.restore()
    const c = createConfirmations(wallet)
    let estimate: (p: typeof payload) => void = () => {}
    const slow = outcome(c.request({ ...ask(async () => '0xslow'), payload: () => new Promise<typeof payload>((r) => (estimate = r)) }))
    const fast = outcome(c.request(ask(async () => '0xfast')))
    expect(wallet.ui.get().view).toBeNull()
    expect(wallet.ui.get().queued).toBe(2)
    estimate({ ...payload, message: 'slow' })
    await vi.advanceTimersByTimeAsync(0)
    expect(wallet.ui.get().confirmation?.payload.message).toBe('slow')
    await c.confirm()
    await vi.advanceTimersByTimeAsync(500)
    expect(await slow).toEqual({ result: '0xslow' })
    c.reject()
    expect(await fast).toMatchObject({ code: 4001 })

    const failing = outcome(c.request({ ...ask(async () => '0x'), payload: () => Promise.reject(new Error('Failed to estimate gas: no funds')) }))
    expect(await failing).toEqual({ code: undefined, message: 'Failed to estimate gas: no funds' })
    expect(wallet.ui.get().view).toBeNull()
    expect(visible.at(-1)).toBe(false)
  })

  test('a request shown on one chain is not carried out after the chain changed (4901)', async () => {
    const { wallet } = testWallet({ session: alice })
    await wallet.restore()
    const c = createConfirmations(wallet)
    const run = vi.fn(async () => '0x')
    const answer = outcome(c.request(ask(run)))
    await wallet.switchChain(31338)
    await c.confirm()
    expect(await answer).toMatchObject({ code: 4901 })
    expect(run).not.toHaveBeenCalled()
  })
})
