import type { Hex } from 'viem'
import { formatUserOperation, type RpcUserOperation, type UserOperation } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { readSeed } from '../app-config/apps.ts'
import { upsertApp } from '../app-config/queries.ts'
import { loadOp } from './bundler.ts'
import type { OpRow } from './queries.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'

// The gas tank is charged for what the chain did. The bundler waits long enough here for a
// front-runner to include an operation first, with its own handleOps through the sandbox's /rpc:
// 4 s, as a loaded CI machine took more than 1.5 s to read, build and send the front-runner's
// transaction, and the bundler then came first (AA10).

const bundleDelayMs = 4000
const f = smartAccountSandbox({ bundleDelayMs })
const { accountsOf, ownerSigns, tank, anvil } = f

const bundlerRpc = (method: string, params: unknown[]) =>
  fetch(`${f.sandbox.url}/api/v1/bundler/31337`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  }).then((r) => r.json())

const includeOurselves = f.includeWithOwnKey

const rowOf = async (id: string) => (await f.sandbox.store.query<OpRow>('SELECT * FROM user_operations WHERE id = $1', [id])).rows[0]!

describe('the gas tank pays for what the chain did', () => {
  test('an operation a front-runner includes first (read from eth_getUserOperationByHash) is charged to the tank and reported included with its receipt', async () => {
    const owner = await f.sandbox.signUp('front-run@example.com', 'smart')
    const [account] = await accountsOf(owner.address)
    const before = await tank()
    const built = await f.sdk.smartAccount.userOp.deploy.hash({ accountId: account!.id, isSponsored: true })
    const signature = await ownerSigns(built.hash, owner.walletToken)
    await f.sdk.smartAccount.userOp.submit({ hash: built.hash, userOpId: built.userOpId!, signature, isSponsored: true })

    // The attacker reads the signed, sponsored operation and includes it before the bundler does.
    const found = await bundlerRpc('eth_getUserOperationByHash', [built.hash])
    const op = formatUserOperation(found.result.userOperation as RpcUserOperation) as UserOperation<'0.7'>
    const { txHash, event } = await includeOurselves(op)
    expect(event).toMatchObject({ userOpHash: built.hash, success: true })

    const receipt = await f.sdk.smartAccount.userOp.receipt({ userOpId: built.userOpId!, wait: true })
    expect(receipt).toMatchObject({ status: 'included', success: true, txHash, actualGasCost: event!.actualGasCost.toString() })
    const rpcReceipt = await bundlerRpc('eth_getUserOperationReceipt', [built.hash])
    expect(rpcReceipt.result).toMatchObject({ userOpHash: built.hash, success: true, receipt: { transactionHash: txHash } })
    expect((await accountsOf(owner.address))[0]!.status).toBe('deployed')
    // Charged its actual cost once, and nothing given back later (the bundler's own turn comes and goes).
    expect(await tank()).toBe(before - event!.actualGasCost)
    await new Promise((resolve) => setTimeout(resolve, bundleDelayMs + 1000))
    expect(await tank()).toBe(before - event!.actualGasCost)
    expect((await rowOf(built.userOpId!)).status).toBe('included')
  })

  test('an operation whose nonce another operation took is failed and its whole reservation given back', async () => {
    const owner = await f.sandbox.signUp('nonce-taken@example.com', 'smart')
    const [account] = await accountsOf(owner.address)
    await anvil('anvil_setBalance', [account!.aaAddress, '0xde0b6b3a7640000'])
    const before = await tank()
    // Two operations with the same nonce: a sponsored deploy, and one the account pays for itself.
    const sponsored = await f.sdk.smartAccount.userOp.deploy.hash({ accountId: account!.id, isSponsored: true })
    const other = await f.sdk.smartAccount.userOp.signTransaction.hash({ accountId: account!.id, to: owner.address, value: '0' })
    const otherSignature = await ownerSigns(other.hash, owner.walletToken)
    const signature = await ownerSigns(sponsored.hash, owner.walletToken)
    await f.sdk.smartAccount.userOp.submit({ hash: sponsored.hash, userOpId: sponsored.userOpId!, signature, isSponsored: true })
    expect(await tank()).toBeLessThan(before)

    const { event } = await includeOurselves({ ...loadOp(await rowOf(other.userOpId!)), signature: otherSignature as Hex })
    expect(event).toMatchObject({ userOpHash: other.hash, success: true })

    const receipt = await f.sdk.smartAccount.userOp.receipt({ userOpId: sponsored.userOpId!, wait: true })
    expect(receipt.status).toBe('failed')
    expect((await bundlerRpc('eth_getUserOperationReceipt', [sponsored.hash])).result).toBeNull()
    await expect.poll(tank, { timeout: bundleDelayMs + 5000 }).toBe(before)
  })

  test('an operation someone includes while the service holds it as not sent (its submit refused after it was readable) is charged all the same', async () => {
    const owner = await f.sandbox.signUp('leaked@example.com', 'smart')
    const [account] = await accountsOf(owner.address)
    const built = await f.sdk.smartAccount.userOp.deploy.hash({ accountId: account!.id, isSponsored: true })
    const signature = await ownerSigns(built.hash, owner.walletToken)
    // The submit is refused (the tank is empty), but the signed operation was readable while it was tried.
    const start = await tank()
    await f.sandbox.store.query("UPDATE gas_tanks SET balance = 0 WHERE app_id = 'smart' AND environment = 'development' AND chain_id = 31337")
    const refused = await f.sdk.smartAccount.userOp.submit({ hash: built.hash, userOpId: built.userOpId!, signature, isSponsored: true }).catch((e) => e)
    expect(refused).toMatchObject({ code: '402' })
    expect((await rowOf(built.userOpId!)).status).toBe('built')
    await f.sandbox.store.query("UPDATE gas_tanks SET balance = $1 WHERE app_id = 'smart' AND environment = 'development' AND chain_id = 31337", [
      start.toString(),
    ])
    const { txHash, event } = await includeOurselves({ ...loadOp(await rowOf(built.userOpId!)), signature: signature as Hex })
    expect(event).toMatchObject({ userOpHash: built.hash, success: true })

    await expect.poll(async () => (await rowOf(built.userOpId!)).status, { timeout: bundleDelayMs + 5000 }).toBe('included')
    expect(await tank()).toBe(start - event!.actualGasCost)
    expect(await f.sdk.smartAccount.userOp.receipt({ userOpId: built.userOpId! })).toMatchObject({ status: 'included', txHash })
  })

  test('a per-user daily sponsorship cap: over it a clear 402 and nothing queued; another user of the app still sponsored', async () => {
    const smart = readSeed().find((seed) => seed.appId === 'smart')!
    const first = await f.sandbox.signUp('capped-1@example.com', 'smart')
    const second = await f.sandbox.signUp('capped-2@example.com', 'smart')
    const [a1] = await accountsOf(first.address)
    const [a2] = await accountsOf(second.address)
    const { maxCost } = (await f.sdk.smartAccount.userOp.deploy.estimate({ accountId: a1!.id, isSponsored: true })) as { maxCost: string }
    const cap = (BigInt(maxCost) * 3n) / 2n
    await upsertApp(f.sandbox.store, { ...smart, settings: { ...smart.settings, smartAccount: { dailySponsorPerUserWei: cap.toString() } } })
    try {
      // Two operations of the first user, built while nothing is spent; the second would pass the cap.
      const one = await f.sdk.smartAccount.userOp.deploy.hash({ accountId: a1!.id, isSponsored: true })
      const two = await f.sdk.smartAccount.userOp.signTransaction.hash({ accountId: a1!.id, to: first.address, value: '0', isSponsored: true })
      await f.sdk.smartAccount.userOp.submit({
        hash: one.hash,
        userOpId: one.userOpId!,
        signature: await ownerSigns(one.hash, first.walletToken),
        isSponsored: true,
      })
      const tankAfterOne = await tank()
      const refused = await f.sdk.smartAccount.userOp
        .submit({ hash: two.hash, userOpId: two.userOpId!, signature: await ownerSigns(two.hash, first.walletToken), isSponsored: true })
        .catch((e) => e)
      expect(refused).toMatchObject({ code: '402', message: expect.stringMatching(/daily sponsorship cap .*dailySponsorPerUserWei/) })
      expect((await rowOf(two.userOpId!)).status).toBe('built')
      expect(await tank()).toBe(tankAfterOne)
      expect(await bundlerRpc('eth_getUserOperationByHash', [two.hash])).toMatchObject({ result: null })
      expect(await f.sdk.smartAccount.userOp.receipt({ userOpId: one.userOpId!, wait: true })).toMatchObject({ status: 'included' })

      // Another user of the same app has a cap of their own.
      const other = await f.sdk.smartAccount.userOp.deploy.hash({ accountId: a2!.id, isSponsored: true })
      await f.sdk.smartAccount.userOp.submit({
        hash: other.hash,
        userOpId: other.userOpId!,
        signature: await ownerSigns(other.hash, second.walletToken),
        isSponsored: true,
      })
      expect(await f.sdk.smartAccount.userOp.receipt({ userOpId: other.userOpId!, wait: true })).toMatchObject({ status: 'included' })
    } finally {
      await upsertApp(f.sandbox.store, smart)
    }
  })
})
