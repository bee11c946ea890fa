import { parseEther, type Address } from 'viem'
import { describe, expect, test } from 'vitest'
import { smartAccountSandbox } from '../smart-account/smart-accounts.fixture.ts'
import { operationStepUp } from './operation-step-up.fixture.ts'

// Red team on the user's own step-up threshold, for a smart account operation: the app asks above
// 0.01 ETH on 31337, the user set 0.001 themselves. A script holding a stolen wallet token asks the
// owner's signature of an operation moving 0.002: the user's lower value holds.

const f = smartAccountSandbox({ rateLimits: { codesPerIp: { max: 200, windowMs: 600_000 } } })
const dead: Address = '0x000000000000000000000000000000000000dEaD'
const { newUser, build, signOp, proofFor, refused } = operationStepUp(f, 'rt-op-threshold')

describe("sign-user-operation under the user's own threshold", () => {
  test('0.002 in calls is refused without a proof when the user set 0.001 (the app allows up to 0.01), and signed with one', async () => {
    const user = await newUser()
    const calls = [{ to: dead, value: parseEther('0.002') }]
    expect((await signOp(user, (await build(user, calls)).userOpId)).status).toBe(200)
    const set = await f.sandbox.call('/api/v2/wallet/step-up-thresholds/31337', {
      method: 'PUT',
      app: 'smart',
      headers: { authorization: `Bearer ${user.walletToken}` },
      body: JSON.stringify({ amount: '0.001' }),
    })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    const built = await build(user, calls)
    const bare = await signOp(user, built.userOpId)
    expect(bare.body).toEqual(refused('confirm it with a second factor first'))
    const signed = await signOp(user, built.userOpId, await proofFor(user, calls))
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
  })
})
