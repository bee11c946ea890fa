// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest'
import { ErrorCode, PROTOCOL_VERSION } from '../bridge/index.ts'
import { frameAwaitingAdmission, settlesSoon } from './bridge.fixture.ts'
import { testContext } from './rpc/context.fixture.ts'
import { connectAnswer as answerDirectly } from './rpc/wallet_connect.ts'
import { setUi } from './wallet.fixture.ts'

// connectAnswer on the real Penpal bridge, called by a page that should not be served: before the
// app config admits it, when the config refuses it, before its hello, or from another origin than
// the one the frame was opened for. It gets no answer or the refusal, and no nonce is spent.

const hostOrigin = 'http://127.0.0.1:5173'
const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
let close = () => {}
afterEach(() => close())

let nonces = 0
const nonce = () => `brg${String(++nonces).padStart(9, '0')}`
const signIn = (n: string) => [{ capabilities: { signInWithEthereum: { nonce: n, chainId: '0x7a69' } } }]

/** A frame opened for `hostOrigin`, a browser wallet connected in it, its page played from `origin`. */
function frame(origin = hostOrigin) {
  const t = testContext()
  setUi(t.wallet, { external: { walletId: 'test.wallet', address: wallet } })
  const { host, admit, close: end } = frameAwaitingAdmission({ hostOrigin, origin, context: Promise.resolve(t.ctx) })
  close = end
  /** Whether the nonce is still good: the frame would still write a sign-in for it. */
  const unspent = (n: string) => {
    try {
      answerDirectly(t.ctx, signIn(n), [wallet])
      return true
    } catch {
      return false
    }
  }
  return { host, admit, unspent }
}

test('before the app config admits the page, connectAnswer gets no answer and writes nothing', async () => {
  const { host, unspent } = frame()
  await host.ready
  const n = nonce()
  const call = host.call(['connectAnswer'], [signIn(n), [wallet]])
  expect(await settlesSoon(call)).toBe(false)
  expect(unspent(n)).toBe(true)
})

test('a page the config refuses gets the refusal for connectAnswer, and no nonce is spent', async () => {
  const { host, admit, unspent } = frame()
  await host.ready
  admit({ refusal: { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' }, chains: [] })
  await host.call(['hello'], [{ protocol: PROTOCOL_VERSION }])
  const n = nonce()
  expect(await host.call(['connectAnswer'], [signIn(n), [wallet]])).toMatchObject({ value: { error: { code: ErrorCode.disconnected } } })
  expect(unspent(n)).toBe(true)
})

test('before its hello, connectAnswer is 4900 and no nonce is spent; after it, the same nonce is written once', async () => {
  const { host, admit, unspent } = frame()
  await host.ready
  admit({ chains: [31337] })
  const n = nonce()
  expect(await host.call(['connectAnswer'], [signIn(n), [wallet]])).toMatchObject({ value: { error: { code: ErrorCode.disconnected } } })
  await host.call(['hello'], [{ protocol: PROTOCOL_VERSION }])
  const answer = (await host.call(['connectAnswer'], [signIn(n), [wallet]])) as { value: { result: [{ accounts: { address: string }[] }, unknown] } }
  expect(answer.value.result[0].accounts[0]!.address).toBe(wallet)
  expect(unspent(n)).toBe(false)
})

test('a window of another origin than the frame was opened for never gets a channel to call connectAnswer on', async () => {
  const { host, admit } = frame('https://evil.example')
  admit({ chains: [31337] })
  expect(await settlesSoon(host.ready)).toBe(false)
})
