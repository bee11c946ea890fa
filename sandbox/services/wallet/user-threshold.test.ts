import { parseEther, type Address, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { transactionRequestHash } from '../../../sdk/wallet/transaction-hash.ts'
import { thresholdChangeHash } from '../../../sdk/wallet/step-up-threshold.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { stepUpProofFor } from './step-up-proof.fixture.ts'
import { thresholdCalls } from './user-threshold.fixture.ts'

// The user's own step-up threshold, called over HTTP as a script holding a stolen wallet token would:
// the seeded 'demo' app sets no threshold, 'stepup' sets 0.01 ETH on 31337.

const dead: Address = '0x000000000000000000000000000000000000dEaD'

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimits: { codesPerIp: { max: 200, windowMs: 600_000 } } })
})
afterAll(() => sandbox?.dispose())

const { newUser, call, put, remove } = thresholdCalls(() => sandbox, 'user-threshold')
type User = Awaited<ReturnType<typeof newUser>>
const mine = async (user: User, chainId = 31337) => {
  const read = await call(user, 'GET', '')
  expect(read.status, JSON.stringify(read.body)).toBe(200)
  return (read.body.data.thresholds as { chainId: number; app: string | null; user: string | null; effective: string | null }[]).find(
    (t) => t.chainId === chainId,
  )
}
const send = (user: User, amount: string, stepUpProof?: string) =>
  sandbox.post('/api/v2/wallet/send-coin', { network: 'local-1', to: dead, amount, ...(stepUpProof && { stepUpProof }) }, user.walletToken, user.app)
const transferHash = (user: User, ether: string) =>
  transactionRequestHash({ chainId: 31337, from: user.address as Address, to: dead, value: parseEther(ether) })
const proofFor = (user: User, request: Hex, action: string) => stepUpProofFor(sandbox, user.app, user, request, action)
const loosenProof = (user: User, chainId: number, ether: string | null) =>
  proofFor(user, thresholdChangeHash(chainId, ether === null ? null : parseEther(ether)), 'loosen-step-up')
const refusedLoosen = (reason: string) => ({ status: 403, message: `Step-up required: ${reason}`, data: { stepUp: { action: 'loosen-step-up' } } })

describe("the user's own threshold holds on sends", () => {
  test('0.001 on 31337 in an app with none: 0.002 needs a proof, 0.0005 does not; 31338 untouched', async () => {
    const user = await newUser()
    expect(await mine(user)).toMatchObject({ app: null, user: null, effective: null })
    expect((await send(user, '0.002')).status).toBe(200)
    expect((await put(user, '0.001')).status).toBe(200)
    expect(await mine(user)).toMatchObject({ app: null, user: '0.001', effective: '0.001' })
    expect(await mine(user, 31338)).toMatchObject({ user: null, effective: null })
    expect((await send(user, '0.0005')).status).toBe(200)
    const bare = await send(user, '0.002')
    expect(bare.status).toBe(403)
    expect(bare.body.data).toEqual({ stepUp: { action: 'send-transaction' } })
    const sent = await send(user, '0.002', await proofFor(user, transferHash(user, '0.002'), 'send-transaction'))
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
  })

  test("the app's lower threshold still wins over a higher one of the user's", async () => {
    const user = await newUser('stepup')
    expect((await put(user, '1')).status).toBe(200)
    expect(await mine(user)).toMatchObject({ app: '0.01', user: '1', effective: '0.01' })
    expect((await send(user, '0.02')).status).toBe(403)
    expect((await send(user, '0.01')).status).toBe(200)
  })

  test("another user's setting is not touched", async () => {
    const [a, b] = [await newUser(), await newUser()]
    expect((await put(a, '0.001')).status).toBe(200)
    expect(await mine(b)).toMatchObject({ user: null })
    expect((await send(b, '0.002')).status).toBe(200)
    expect((await remove(b)).status).toBe(200)
    expect(await mine(a)).toMatchObject({ user: '0.001' })
  })
})

describe('stricter needs nothing, looser needs a proof bound to the change', () => {
  test('adding and lowering go without a proof', async () => {
    const user = await newUser()
    expect((await put(user, '0.5')).status).toBe(200)
    expect((await put(user, '0.1')).status).toBe(200)
    expect(await mine(user)).toMatchObject({ user: '0.1' })
  })

  test('raising or removing without a proof: 403, unchanged', async () => {
    const user = await newUser()
    expect((await put(user, '0.001')).status).toBe(200)
    const raised = await put(user, '0.002')
    expect(raised.body).toEqual(refusedLoosen('confirm it with a second factor first'))
    const removed = await remove(user)
    expect(removed.body).toEqual(refusedLoosen('confirm it with a second factor first'))
    expect(await mine(user)).toMatchObject({ user: '0.001' })
    expect((await send(user, '0.002')).status).toBe(403)
  })

  test('a proof for another value, another chain or removal is refused; the right one raises it once', async () => {
    const user = await newUser()
    expect((await put(user, '0.001')).status).toBe(200)
    const forOther = await put(user, '5', { stepUpProof: await loosenProof(user, 31337, '0.002') })
    expect(forOther.body).toEqual(refusedLoosen('the step-up proof is for another request'))
    const otherChain = await put(user, '0.002', { stepUpProof: await loosenProof(user, 31338, '0.002') })
    expect(otherChain.body).toEqual(refusedLoosen('the step-up proof is for another request'))
    const removal = await put(user, '0.002', { stepUpProof: await loosenProof(user, 31337, null) })
    expect(removal.body).toEqual(refusedLoosen('the step-up proof is for another request'))
    const transactionProof = await proofFor(user, thresholdChangeHash(31337, parseEther('0.002')), 'send-transaction')
    expect((await put(user, '0.002', { stepUpProof: transactionProof })).body).toEqual(refusedLoosen('the step-up proof is for another action'))
    expect(await mine(user)).toMatchObject({ user: '0.001' })
    const stepUpProof = await loosenProof(user, 31337, '0.002')
    expect((await put(user, '0.0020', { stepUpProof })).status).toBe(200)
    expect(await mine(user)).toMatchObject({ user: '0.002' })
    expect((await send(user, '0.002')).status).toBe(200)
    // Back down (stricter, no proof), then the same raise again: the proof was spent.
    expect((await put(user, '0.001')).status).toBe(200)
    expect((await put(user, '0.002', { stepUpProof })).body).toEqual(refusedLoosen('the step-up proof was already used'))
  })

  test('removing with a proof for removal', async () => {
    const user = await newUser()
    expect((await put(user, '0.001')).status).toBe(200)
    expect((await remove(user, { stepUpProof: await loosenProof(user, 31337, null) })).status).toBe(200)
    expect(await mine(user)).toMatchObject({ user: null, effective: null })
  })
})

describe('bad requests', () => {
  test.each([['-1'], ['1e3'], ['0x10'], ['.5'], ['1.'], [' 1'], [1], [null], ['1'.repeat(81)], [`0.${'1'.repeat(19)}`]])(
    'amount %j → 400, nothing stored',
    async (amount) => {
      const user = await newUser()
      const answer = await put(user, amount)
      expect(answer.status, JSON.stringify(answer.body)).toBe(400)
      expect(await mine(user)).toMatchObject({ user: null })
    },
  )

  test('an unknown chain, a malformed chain id, an extra field → 400; no token → 401', async () => {
    const user = await newUser()
    expect((await put(user, '1', {}, 1)).status).toBe(400)
    expect((await put(user, '1', {}, '031337')).status).toBe(400)
    expect((await put(user, '1', { extra: true })).status).toBe(400)
    expect((await sandbox.call('/api/v2/wallet/step-up-thresholds', { method: 'GET' })).status).toBe(401)
    expect(await mine(user)).toMatchObject({ user: null })
  })
})
