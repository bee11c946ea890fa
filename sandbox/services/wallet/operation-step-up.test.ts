import { parseEther, type Address, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { operationTypedData } from '../../../sdk/smart-account/operation.ts'
import { transactionRequestHash } from '../../../sdk/wallet/transaction-hash.ts'
import { smartAccountSandbox } from '../smart-account/smart-accounts.fixture.ts'
import { opById } from '../smart-account/queries.ts'
import { operationStepUp } from './operation-step-up.fixture.ts'
import { stepUpProofFor } from './step-up-proof.fixture.ts'

// Issue 24: the wallet service signed any 32-byte hash (sign-hash), so a stolen wallet token could
// sign the owner's authorisation of a smart account operation and move the account's funds with no
// step-up. Now the owner signs only operations the service stored, by their id, with the same rule
// as a transaction: above the app's threshold (their calls' native value together), only with a
// proof for those very calls. Every check calls the HTTP API directly, as a script holding a stolen
// wallet token would. The 'smart' app gets a threshold of 0.01 ETH on chain 31337 here.

const f = smartAccountSandbox({ rateLimits: { codesPerIp: { max: 200, windowMs: 600_000 } } })
const { wallet, ethOf } = f
const dead: Address = '0x000000000000000000000000000000000000dEaD'
const { app, newUser, build, signOp, submit, proofFor, refused } = operationStepUp(f, 'op-step-up')
const statusOf = async (userOpId: string) => (await opById(f.sandbox.store, userOpId))?.status

describe("a smart account operation's authorisation above the app threshold needs a step-up proof for its calls", () => {
  test('without a proof: 403 and nothing signed; a proof for other calls or a transaction is refused; with its own proof it is signed and runs', async () => {
    const user = await newUser()
    const calls = [{ to: dead, value: parseEther('0.02') }]
    const built = await build(user, calls)
    const bare = await signOp(user, built.userOpId)
    expect(bare.status).toBe(403)
    expect(bare.body).toEqual(refused('confirm it with a second factor first'))
    const forMore = await proofFor(user, [{ to: dead, value: parseEther('0.03') }])
    expect((await signOp(user, built.userOpId, forMore)).body).toEqual(refused('the step-up proof is for another request'))
    // The same value sent by the wallet itself is another request too.
    const forTransfer = await stepUpProofFor(
      f.sandbox,
      app,
      user,
      transactionRequestHash({ chainId: 31337, from: user.address as Address, to: dead, value: parseEther('0.02') }),
    )
    expect((await signOp(user, built.userOpId, forTransfer)).body).toEqual(refused('the step-up proof is for another request'))
    expect(await statusOf(built.userOpId)).toBe('built')

    const before = await ethOf(dead)
    const signed = await signOp(user, built.userOpId, await proofFor(user, calls))
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    expect(await submit(built, signed.body.data.signature)).toMatchObject({ status: 'submitted' })
    expect(await f.sdk.smartAccount.userOp.receipt({ userOpId: built.userOpId, wait: true })).toMatchObject({ status: 'included', success: true })
    expect((await ethOf(dead)) - before).toBe(parseEther('0.02'))
    // Submitted: not signed again.
    expect((await signOp(user, built.userOpId)).status).toBe(409)
  })

  test('the calls of one operation are totalled: two of 0.006 need a proof; at the threshold none is needed', async () => {
    const user = await newUser()
    const split = [
      { to: dead, value: parseEther('0.006') },
      { to: '0x000000000000000000000000000000000000bEEF' as Address, value: parseEther('0.006'), data: '0x1234' as Hex },
    ]
    const batch = await build(user, split)
    expect((await signOp(user, batch.userOpId)).body).toEqual(refused('confirm it with a second factor first'))
    expect((await signOp(user, batch.userOpId, await proofFor(user, split))).status).toBe(200)
    const atThreshold = await build(user, [{ to: dead, value: parseEther('0.01') }])
    const signed = await signOp(user, atThreshold.userOpId)
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    expect(signed.body.data.signature).toMatch(/^0x[0-9a-f]{130}$/)
  })

  test("another wallet's operation or an unknown id is 404; no other wallet signature authorises an operation", async () => {
    const [user, thief] = [await newUser(), await newUser()]
    const calls = [{ to: dead, value: parseEther('0.5') }]
    const built = await build(user, calls)
    expect((await signOp(thief, built.userOpId)).status).toBe(404)
    expect((await signOp(user, '00000000-0000-0000-0000-000000000000')).status).toBe(404)
    // A stolen token's other ways to the same signature: no bare hash, no typed data in the account's
    // domain, and the account's ERC-7739 signature of that typed data is no operation authorisation.
    const authorisation = operationTypedData({ chainId: 31337, account: user.sender, userOpHash: built.hash })
    expect((await wallet('sign-hash', { network: 'local-1', hash: built.hash }, user.walletToken)).status).toBe(404)
    expect((await wallet('sign-typed-data', { network: 'local-1', data: JSON.stringify(authorisation) }, user.walletToken)).status).toBe(400)
    const wrapped = await wallet('sign-account-typed-data', { accountId: user.accountId, typedData: JSON.stringify(authorisation) }, user.walletToken)
    expect(wrapped.status).toBe(200)
    expect(await submit(built, wrapped.body.data.signature)).toMatchObject({ code: '400' })
    expect(await statusOf(built.userOpId)).toBe('built')
    expect(await ethOf(user.sender)).toBe(parseEther('1'))
    // The account signatures are for the wallet's own accounts only.
    expect((await wallet('sign-account-message', { accountId: user.accountId, message: 'hi' }, thief.walletToken)).status).toBe(404)
  })
})
