import { createPublicClient, http, parseEther, toHex, type Address, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { transactionRequestHash } from '../../../sdk/wallet/transaction-hash.ts'
import { startTestSandbox, type CreatedWallet, type TestSandbox } from '../../sandbox.fixture.ts'
import { stepUpProofFor } from './step-up-proof.fixture.ts'

// The seeded 'stepup' app asks a second factor for a transaction above 0.01 ETH on chain 31337 and
// sets nothing for 31338. Every check here calls the HTTP API directly, as a script holding a stolen
// wallet token would.

const app = 'stepup'
const dead: Address = '0x000000000000000000000000000000000000dEaD'
const other: Address = '0x000000000000000000000000000000000000bEEF'

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimits: { codesPerIp: { max: 200, windowMs: 600_000 } } })
})
afterAll(() => sandbox?.dispose())

const wallet = (path: string, body: unknown, user: CreatedWallet) => sandbox.post(`/api/v2/wallet/${path}`, body, user.walletToken, app)
let users = 0
const newUser = async () => {
  const email = `step-up-tx-${++users}@example.com`
  return { ...(await sandbox.signUp(email, app)), email }
}
type User = Awaited<ReturnType<typeof newUser>>

/** A step-up proof for `action` bound to `request` (a hash), earned with the code the dev inbox got. */
const proofFor = (user: User, request: Hex | undefined, action = 'send-transaction') => stepUpProofFor(sandbox, app, user, request, action)

/** The hash of a plain transfer of `ether` to `to` on `chainId`, as the frame computes it. */
const transferHash = (user: User, ether: string, to: Address = dead, chainId = 31337) =>
  transactionRequestHash({ chainId, from: user.address as Address, to, value: parseEther(ether) })

const refused = (reason: string) => ({ status: 403, message: `Step-up required: ${reason}`, data: { stepUp: { action: 'send-transaction' } } })
const nonceOf = (user: User) => createPublicClient({ transport: http(`${sandbox.url}/rpc/31337`) }).getTransactionCount({ address: user.address as Address })

describe('a transaction above the app threshold needs a step-up proof for that transaction', () => {
  test('send-coin: at the threshold it goes; above it is refused without a proof, nothing is sent, and goes with one', async () => {
    const user = await newUser()
    expect((await wallet('send-coin', { network: 'local-1', to: dead, amount: '0.01' }, user)).status).toBe(200)
    const before = await nonceOf(user)
    const bare = await wallet('send-coin', { network: 'local-1', to: dead, amount: '0.010000000000000001' }, user)
    expect(bare.status).toBe(403)
    expect(bare.body).toEqual(refused('confirm it with a second factor first'))
    expect(await nonceOf(user)).toBe(before)
    const stepUpProof = await proofFor(user, transferHash(user, '0.02'))
    const sent = await wallet('send-coin', { network: 'local-1', to: dead, amount: '0.02', stepUpProof }, user)
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    expect(sent.body.data.txReceipt.status).toBe('success')
  })

  test('a proof is spent once: the same transaction again is refused', async () => {
    const user = await newUser()
    const stepUpProof = await proofFor(user, transferHash(user, '0.5'))
    expect((await wallet('send-coin', { network: 'local-1', to: dead, amount: '0.5', stepUpProof }, user)).status).toBe(200)
    const again = await wallet('send-coin', { network: 'local-1', to: dead, amount: '0.5', stepUpProof }, user)
    expect(again.body).toEqual(refused('the step-up proof was already used'))
  })

  test('a proof for another value, another recipient, another chain or no request pays for nothing else', async () => {
    const user = await newUser()
    const forHalf = await proofFor(user, transferHash(user, '0.5'))
    expect((await wallet('send-coin', { network: 'local-1', to: dead, amount: '0.6', stepUpProof: forHalf }, user)).body).toEqual(
      refused('the step-up proof is for another request'),
    )
    expect((await wallet('send-coin', { network: 'local-1', to: other, amount: '0.5', stepUpProof: forHalf }, user)).body).toEqual(
      refused('the step-up proof is for another request'),
    )
    const onOtherChain = await proofFor(user, transferHash(user, '0.5', dead, 31338))
    expect((await wallet('send-coin', { network: 'local-1', to: dead, amount: '0.5', stepUpProof: onOtherChain }, user)).body).toEqual(
      refused('the step-up proof is for another request'),
    )
    const unbound = await proofFor(user, undefined)
    expect((await wallet('send-coin', { network: 'local-1', to: dead, amount: '0.5', stepUpProof: unbound }, user)).body).toEqual(
      refused('the step-up proof is for another request'),
    )
  })

  test('a proof of another action, even bound to the same hash, is refused', async () => {
    const user = await newUser()
    const exportProof = await proofFor(user, transferHash(user, '0.5'), 'export-key')
    expect((await wallet('send-coin', { network: 'local-1', to: dead, amount: '0.5', stepUpProof: exportProof }, user)).body).toEqual(
      refused('the step-up proof is for another action'),
    )
  })

  test('another chain without a threshold, and an app without one, send as before', async () => {
    const user = await newUser()
    expect((await wallet('send-coin', { network: 'local-2', to: dead, amount: '1' }, user)).status).toBe(200)
    const demo = await sandbox.signUp('step-up-tx-demo@example.com')
    const sent = await sandbox.post('/api/v2/wallet/send-coin', { network: 'local-1', to: dead, amount: '1' }, demo.walletToken)
    expect(sent.status).toBe(200)
  })

  test('send-transaction and sign-transaction: the same rule, with the value as whole units or hex and the calldata and fees bound', async () => {
    const user = await newUser()
    const from = user.address as Address
    const transaction = { from, to: dead, value: '0.25', data: '0x1234' }
    expect((await wallet('send-transaction', { network: 'local-1', transaction }, user)).body).toEqual(refused('confirm it with a second factor first'))
    expect((await wallet('sign-transaction', { network: 'local-1', transaction }, user)).body).toEqual(refused('confirm it with a second factor first'))
    const hash = transactionRequestHash({ chainId: 31337, from, to: dead, value: parseEther('0.25'), data: '0x1234' })
    const otherData = await proofFor(user, hash)
    expect(
      (await wallet('send-transaction', { network: 'local-1', transaction: { ...transaction, data: '0x12345678' }, stepUpProof: otherData }, user)).body,
    ).toEqual(refused('the step-up proof is for another request'))
    const otherFee = await proofFor(user, hash)
    expect(
      (await wallet('send-transaction', { network: 'local-1', transaction: { ...transaction, gasLimit: '100000' }, stepUpProof: otherFee }, user)).body,
    ).toEqual(refused('the step-up proof is for another request'))
    const asHex = { ...transaction, value: toHex(parseEther('0.25')) }
    const sent = await wallet('send-transaction', { network: 'local-1', transaction: asHex, stepUpProof: await proofFor(user, hash) }, user)
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    const signed = await wallet('sign-transaction', { network: 'local-1', transaction, stepUpProof: await proofFor(user, hash) }, user)
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    expect(signed.body.data.signedTransaction).toMatch(/^0x/)
  })

  test('a route that moves no native value takes no proof field', async () => {
    const user = await newUser()
    const response = await wallet('send-token', { network: 'local-1', to: dead, amount: '1', tokenAddress: dead, stepUpProof: 'sup_x' }, user)
    expect(response.status).toBe(400)
    expect(response.body.message).toBe('Unknown field in body: stepUpProof')
  })
})
