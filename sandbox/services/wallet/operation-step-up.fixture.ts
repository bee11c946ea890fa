import { parseEther, type Address, type Hex } from 'viem'
import { beforeAll } from 'vitest'
import { operationRequestHash, type OperationCallToHash } from '../../../sdk/wallet/transaction-hash.ts'
import type { smartAccountSandbox } from '../smart-account/smart-accounts.fixture.ts'
import { stepUpProofFor } from './step-up-proof.fixture.ts'

/**
 * What the tests of a smart account operation's step-up share: the 'smart' app asking a step-up above
 * 0.01 ETH on chain 31337, users whose account there holds 1 ETH, and the calls a script holding a
 * stolen wallet token makes (build the operation, ask the owner's signature, submit, earn a proof).
 */
export function operationStepUp(f: ReturnType<typeof smartAccountSandbox>, emailPrefix: string) {
  const app = 'smart'
  beforeAll(async () => {
    await f.sandbox.store.query("UPDATE apps SET settings = settings || $1::jsonb WHERE app_id = 'smart'", [
      JSON.stringify({ stepUp: { transactionAbove: { '31337': '0.01' } } }),
    ])
    f.sandbox.store.readCache.delete('apps')
  })
  let users = 0
  /** A user of the app whose smart account on chain 31337 holds 1 ETH; also its account on 31338. */
  async function newUser() {
    const email = `${emailPrefix}-${++users}@example.com`
    const user = { ...(await f.sandbox.signUp(email, app)), email }
    const [account, other] = await f.accountsOf(user.address)
    const sender = account!.aaAddress as Address
    await f.anvil('anvil_setBalance', [sender, `0x${parseEther('1').toString(16)}`])
    return { ...user, accountId: account!.id, otherChainAccountId: other!.id, sender }
  }
  type User = Awaited<ReturnType<typeof newUser>>
  /** The app's back end builds the operation running `calls` (sponsored): its id and hash. */
  async function build(user: User, calls: readonly OperationCallToHash[]) {
    const built = await f.sdk.smartAccount.userOp.signTransaction.hash({
      accountId: user.accountId,
      calls: calls.map((call) => ({ to: call.to, value: (call.value ?? 0n).toString(), data: call.data ?? '0x' })),
      isSponsored: true,
    })
    return { userOpId: built.userOpId!, hash: built.hash as Hex }
  }
  const signOp = (user: User, userOpId: string, stepUpProof?: string) =>
    f.wallet('sign-user-operation', { userOpId, ...(stepUpProof && { stepUpProof }) }, user.walletToken)
  const submit = (built: { userOpId: string; hash: Hex }, signature: string) =>
    f.sdk.smartAccount.userOp.submit({ hash: built.hash, userOpId: built.userOpId, signature, isSponsored: true }).catch((error) => error)
  const proofFor = (user: User, calls: readonly OperationCallToHash[]) =>
    stepUpProofFor(f.sandbox, app, user, operationRequestHash({ chainId: 31337, account: user.sender, calls }))
  /** The service's refusal for want of a step-up, as the envelope says it. */
  const refused = (reason: string) => ({ status: 403, message: `Step-up required: ${reason}`, data: { stepUp: { action: 'send-transaction' } } })
  return { app, newUser, build, signOp, submit, proofFor, refused }
}
