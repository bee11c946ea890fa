import { formatEther, parseEther, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { thresholdChangeHash } from '../../../sdk/wallet/step-up-threshold.ts'
import { transactionRequestHash } from '../../../sdk/wallet/transaction-hash.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { stepUpProofFor } from './step-up-proof.fixture.ts'
import { thresholdCalls } from './user-threshold.fixture.ts'

// Red team on the user's own step-up threshold: a script holding a stolen wallet token tries to
// loosen it without a second factor, then to send past it. 'demo' sets no threshold of its own;
// 'stepup' sets 0.01 ETH on 31337.

const dead: Address = '0x000000000000000000000000000000000000dEaD'

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimits: { codesPerIp: { max: 300, windowMs: 600_000 } } })
})
afterAll(() => sandbox?.dispose())

const { newUser, call, put } = thresholdCalls(() => sandbox, 'rt-threshold')
type User = Awaited<ReturnType<typeof newUser>>
/** The user's own threshold on `chainId` in wei, straight from the table (null: none). */
const stored = async (user: User, chainId = 31337) => {
  const { rows } = await sandbox.store.query<{ above: string }>(
    'SELECT above FROM user_step_up_thresholds WHERE chain_id = $2 AND user_id = (SELECT user_id FROM wallets WHERE address = $1)',
    [user.address, chainId],
  )
  return rows[0]?.above ?? null
}
const loosenProof = (user: User, chainId: number, above: bigint | null) =>
  stepUpProofFor(sandbox, user.app, user, thresholdChangeHash(chainId, above), 'loosen-step-up')
const wallet = (user: User, path: string, body: object) => sandbox.post(`/api/v2/wallet/${path}`, body, user.walletToken, user.app)

const milli = parseEther('0.001').toString()

describe('loosening without a proof, by spelling', () => {
  test('the same value in other plain spellings is no change and needs nothing', async () => {
    const user = await newUser()
    expect((await put(user, '0.001')).status).toBe(200)
    for (const amount of ['0.0010', '00.001', '0.001000000000000000']) {
      const answer = await put(user, amount)
      expect(answer.status, `${amount}: ${JSON.stringify(answer.body)}`).toBe(200)
      expect(await stored(user)).toBe(milli)
    }
  })

  test.each([
    ['1e-3'],
    [' 0.001'],
    ['0.001 '],
    ['0x38d7ea4c68000'],
    ['-0'],
    ['+0.002'],
    ['0.0000000000000000001'],
    ['１'],
    ['٠٫٠٠٢'],
    ['0.002\u0000'],
    ['1_000'],
    [''],
    ['Infinity'],
    ['NaN'],
    [0.002],
    [{}],
    [['0.002']],
    [true],
  ])('amount %j → 400, the stricter value kept', async (amount) => {
    const user = await newUser()
    expect((await put(user, '0.001')).status).toBe(200)
    const answer = await put(user, amount)
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(await stored(user)).toBe(milli)
  })

  test('one wei more is looser (compared as integers, not floats): 403 without a proof; one wei less goes', async () => {
    const user = await newUser()
    const one = parseEther('1').toString()
    expect((await put(user, '1')).status).toBe(200)
    // As a double, 1.000000000000000001 is 1: only an integer comparison sees it is more.
    const up = await put(user, '1.000000000000000001')
    expect(up.status).toBe(403)
    expect(up.body.data).toEqual({ stepUp: { action: 'loosen-step-up' } })
    expect(await stored(user)).toBe(one)
    expect((await put(user, '0.999999999999999999')).status).toBe(200)
    expect(await stored(user)).toBe((parseEther('1') - 1n).toString())
    // And a send of one wei above it is held to it.
    const send = await wallet(user, 'send-coin', { network: 'local-1', to: dead, amount: '1' })
    expect(send.status).toBe(403)
  })

  test('a huge value, by PUT or DELETE, is looser: 403 without a proof; each proof only for its own change', async () => {
    const user = await newUser()
    expect((await put(user, '0.001')).status).toBe(200)
    const huge = '9'.repeat(59)
    expect((await put(user, huge)).status).toBe(403)
    expect((await call(user, 'DELETE', '/31337', {})).status).toBe(403)
    const forRemoval = await loosenProof(user, 31337, null)
    expect((await put(user, huge, { stepUpProof: forRemoval })).body.message).toMatch(/another request/)
    const forHuge = await loosenProof(user, 31337, parseEther(huge))
    expect((await call(user, 'DELETE', '/31337', { stepUpProof: forHuge })).body.message).toMatch(/another request/)
    expect(await stored(user)).toBe(milli)
  })
})

describe('the chain, the user and the app', () => {
  test.each([['0x7a69'], ['31337.0'], ['+31337'], ['%2031337'], ['3.1337e4'], ['31339'], ['1'], ['-31337'], ['31337%00']])(
    'chain %s → 400, nothing stored on any chain',
    async (chainId) => {
      const user = await newUser()
      const answer = await put(user, '0.001', {}, chainId)
      expect(answer.status, JSON.stringify(answer.body)).toBe(400)
      const { rows } = await sandbox.store.query('SELECT 1 FROM user_step_up_thresholds WHERE user_id = (SELECT user_id FROM wallets WHERE address = $1)', [
        user.address,
      ])
      expect(rows).toHaveLength(0)
    },
  )

  test("a loosening proof of another chain, another user or another app's account does not loosen this one", async () => {
    const user = await newUser()
    const other = await newUser()
    const elsewhere = { ...(await sandbox.signUp(user.email, 'stepup')), email: user.email, app: 'stepup' }
    for (const u of [user, other]) expect((await put(u, '0.001')).status).toBe(200)
    expect((await put(elsewhere, '0.001')).status).toBe(200)
    const target = parseEther('1')
    const otherChain = await loosenProof(user, 31338, target)
    expect((await put(user, '1', { stepUpProof: otherChain })).body.message).toMatch(/another request/)
    const othersProof = await loosenProof(other, 31337, target)
    expect((await put(user, '1', { stepUpProof: othersProof })).body.message).toMatch(/not valid/)
    const otherAppProof = await loosenProof(elsewhere, 31337, target)
    expect((await put(user, '1', { stepUpProof: otherAppProof })).body.message).toMatch(/not valid/)
    expect(await stored(user)).toBe(milli)
  })

  test("in an app with 0.01, a user's 1 loosens nothing, and a user's 0.001 is stricter on every value-moving route", async () => {
    const user = await newUser('stepup')
    expect((await put(user, '1')).status).toBe(200)
    expect((await wallet(user, 'send-coin', { network: 'local-1', to: dead, amount: '0.02' })).status).toBe(403)
    // Lowering from 1 to 0.001 is stricter: no proof.
    expect((await put(user, '0.001')).status).toBe(200)
    const value = parseEther('0.002')
    const transaction = { from: user.address, to: dead, value: `0x${value.toString(16)}`, data: '0x' }
    for (const [path, body] of [
      ['send-coin', { network: 'local-1', to: dead, amount: '0.002' }],
      ['send-transaction', { network: 'local-1', transaction }],
      ['sign-transaction', { network: 'local-1', transaction }],
    ] as const) {
      const answer = await wallet(user, path, body)
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(403)
      expect(answer.body.data).toEqual({ stepUp: { action: 'send-transaction' } })
    }
    const hash = transactionRequestHash({ chainId: 31337, from: user.address as Address, to: dead, value })
    const stepUpProof = await stepUpProofFor(sandbox, 'stepup', user, hash)
    const sent = await wallet(user, 'send-coin', { network: 'local-1', to: dead, amount: '0.002', stepUpProof })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
  })
})

describe('races', () => {
  test('stricter PUTs racing looser and equal ones without a proof: the stored value only ever goes down', async () => {
    const user = await newUser()
    expect((await put(user, '0.001')).status).toBe(200)
    for (let round = 0; round < 4; round++) {
      // Without proofs only a stricter or equal value may land on the one it was judged against, so
      // the values written form a falling line: the end one is the lowest written.
      const start = BigInt((await stored(user))!)
      const ether = [start, (start * 9n) / 10n, start / 2n, start, start / 5n, (start * 9n) / 10n, start * 2n, start * 5000n].map((wei) => formatEther(wei))
      const answers = await Promise.all([...ether.map((e) => put(user, e)), call(user, 'DELETE', '/31337', {})])
      for (const answer of answers) expect([200, 403, 409], JSON.stringify(answer.body)).toContain(answer.status)
      expect(answers.at(-1)!.status).toBe(403)
      const written = ether.flatMap((e, i) => (answers[i]!.status === 200 ? [parseEther(e)] : []))
      const end = BigInt((await stored(user))!)
      expect(end <= start).toBe(true)
      expect(written.every((wei) => end <= wei)).toBe(true)
    }
  })

  test('from none, two inserts and a removal race: a value is stored and no error but a refusal or a conflict', async () => {
    const user = await newUser()
    const answers = await Promise.all([put(user, '0.001'), call(user, 'DELETE', '/31337', {}), put(user, '0.002')])
    // The one landing first decides: then a removal or a higher value is looser and asks a proof.
    for (const answer of answers) expect([200, 403, 409]).toContain(answer.status)
    expect([milli, parseEther('0.002').toString()]).toContain(await stored(user))
  })
})
