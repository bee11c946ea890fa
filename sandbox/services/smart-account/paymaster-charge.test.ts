import { http, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createBundlerClient, createPaymasterClient, formatUserOperationRequest, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import { readSeed } from '../app-config/apps.ts'
import { upsertApp } from '../app-config/queries.ts'
import { maxCostOf } from './bundler-policy.ts'
import { opByHash } from './queries.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'

// The ERC-7677 path: an app's back end asks pm_getPaymasterData for the paymaster's signature and
// includes the operation itself, with its own handleOps through the sandbox's /rpc, never sending it
// to the bundler. The app's gas tank pays all the same: the sponsorship sets the operation's maximum
// cost aside when signed (within the per-user daily cap), and its actualGasCost is charged once its
// UserOperationEvent is on chain.

const f = smartAccountSandbox()
const { publicClient, accountModelFor, tank, anvil } = f

const url = () => `${f.sandbox.url}/api/v1/bundler/31337`
const appHeaders = { 'x-app-id': 'smart', 'x-environment': 'development', 'x-client-secret': 'smart-client-secret' }

const rpc = (method: string, params: unknown[], headers: Record<string, string> = {}) =>
  fetch(url(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  }).then((r) => r.json() as Promise<{ result?: unknown; error?: { code: number; message: string } }>)

/** A fresh owner's account, and viem's bundler client whose paymaster is the app's (ERC-7677 with the app's headers). */
async function fresh() {
  const key = privateKeyToAccount(generatePrivateKey())
  const account = await accountModelFor(key)
  const paymaster = createPaymasterClient({ transport: http(url(), { fetchOptions: { headers: appHeaders } }) })
  const bundler = createBundlerClient({ account, client: publicClient(), paymaster, transport: http(url()), pollingInterval: 100 })
  return { account, bundler }
}

type Op = UserOperation<'0.7'>

/** Prepares a sponsored operation (pm_getPaymasterStubData, estimate, pm_getPaymasterData) and has its owner sign it the account's way (EIP-712). */
async function sponsoredOp(who: Awaited<ReturnType<typeof fresh>>, to: Hex = privateKeyToAccount(generatePrivateKey()).address): Promise<Op> {
  const prepared = (await who.bundler.prepareUserOperation({ calls: [{ to, value: 0n, data: '0x' }] })) as unknown as Op
  const signature = await who.account.signUserOperation(prepared)
  return { ...prepared, signature }
}

const hashOf = (op: Op) => getUserOperationHash({ chainId: 31337, entryPointAddress, entryPointVersion: '0.7', userOperation: op })

/** Someone with their own funded key includes `op` through the sandbox's public chain proxy (/rpc). */
async function includeOurselves(op: Op) {
  const { txHash, event } = await f.includeWithOwnKey(op)
  if (!event) throw new Error('No UserOperationEvent in the handleOps transaction')
  return { txHash, event }
}

/** The paymaster fields of `op` as sent back to pm_getPaymasterData (the request carries none of them). */
const withoutPaymaster = (op: Op) => {
  const { paymaster, paymasterData, paymasterVerificationGasLimit, paymasterPostOpGasLimit, ...rest } = formatUserOperationRequest(op)
  return rest
}

describe('sponsorship through the ERC-7677 endpoints is paid from the gas tank', () => {
  test('an operation the app includes itself with handleOps through /rpc, never sent to the bundler, is charged its actualGasCost', async () => {
    const who = await fresh()
    const before = await tank()
    const op = await sponsoredOp(who)
    // Set aside when signed: the operation's maximum cost.
    expect(await tank()).toBe(before - maxCostOf(op))
    // Not sent to this bundler: not handed out by it.
    expect(await rpc('eth_getUserOperationByHash', [hashOf(op)])).toMatchObject({ result: null })

    const { txHash, event } = await includeOurselves(op)
    expect(event).toMatchObject({ userOpHash: hashOf(op), success: true })
    // The watch reads the paymaster's events: charged what the chain did, the rest of the reservation given back.
    await expect.poll(tank, { timeout: 5000 }).toBe(before - event.actualGasCost)
    const row = await opByHash(f.sandbox.store, hashOf(op))
    expect(row).toMatchObject({ status: 'included', charged: event.actualGasCost.toString(), reserved: '0', tx_hash: txHash })
    expect((await rpc('eth_getUserOperationReceipt', [hashOf(op)])).result).toMatchObject({ userOpHash: hashOf(op), success: true })
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await tank()).toBe(before - event.actualGasCost)
  })

  test('asking twice for the same operation reserves once, and answers the same signature', async () => {
    const who = await fresh()
    const before = await tank()
    const op = await sponsoredOp(who)
    expect(await tank()).toBe(before - maxCostOf(op))
    const again = await rpc('pm_getPaymasterData', [withoutPaymaster(op), entryPointAddress, '0x7a69', null], appHeaders)
    expect(again.error).toBeUndefined()
    expect(again.result).toMatchObject({ paymaster: op.paymaster, paymasterData: op.paymasterData })
    expect(await tank()).toBe(before - maxCostOf(op))

    // Sent the standard way after all: its reservation is the one taken, charged once.
    const hash = await rpc('eth_sendUserOperation', [formatUserOperationRequest(op), entryPointAddress])
    expect(hash).toMatchObject({ result: hashOf(op) })
    const receipt = await who.bundler.waitForUserOperationReceipt({ hash: hashOf(op) })
    expect(receipt.success).toBe(true)
    await expect.poll(tank, { timeout: 5000 }).toBe(before - receipt.actualGasCost)
  })

  test('the per-user daily cap applies at pm_getPaymasterData: over it a JSON-RPC error and nothing signed or set aside; another user still sponsored', async () => {
    const smart = readSeed().find((seed) => seed.appId === 'smart')!
    const first = await fresh()
    const second = await fresh()
    const start = await tank()
    const one = await sponsoredOp(first)
    const cap = (maxCostOf(one) * 3n) / 2n
    await upsertApp(f.sandbox.store, { ...smart, settings: { ...smart.settings, smartAccount: { dailySponsorPerUserWei: cap.toString() } } })
    try {
      const held = await tank()
      expect(held).toBe(start - maxCostOf(one))
      // A second operation of the same user (another call) would pass the cap.
      const refused = await rpc(
        'pm_getPaymasterData',
        [
          withoutPaymaster({ ...one, callData: await first.account.encodeCalls([{ to: first.account.address, value: 0n, data: '0x' }]) }),
          entryPointAddress,
          '0x7a69',
          null,
        ],
        appHeaders,
      )
      expect(refused.result).toBeUndefined()
      expect(refused.error).toMatchObject({ code: -32501, message: expect.stringMatching(/daily sponsorship cap.*dailySponsorPerUserWei/) })
      expect(await tank()).toBe(held)
      // The same operation asked again is no new sponsorship: still answered.
      const same = await rpc('pm_getPaymasterData', [withoutPaymaster(one), entryPointAddress, '0x7a69', null], appHeaders)
      expect(same.result).toMatchObject({ paymasterData: one.paymasterData })
      expect(await tank()).toBe(held)
      // Another user of the app has a cap of their own.
      const other = await sponsoredOp(second)
      expect(await tank()).toBe(held - maxCostOf(other))
    } finally {
      await upsertApp(f.sandbox.store, smart)
    }
  })

  test('a sponsorship whose nonce another operation takes gives its whole reservation back; the other is charged what it cost', async () => {
    const who = await fresh()
    const before = await tank()
    const unused = await sponsoredOp(who)
    expect(await tank()).toBe(before - maxCostOf(unused))
    // The same account's operation with the same nonce, sent the standard way (sponsored too), is included first.
    const hash = await who.bundler.sendUserOperation({ calls: [{ to: who.account.address, value: 0n, data: '0x' }], nonce: unused.nonce })
    const receipt = await who.bundler.waitForUserOperationReceipt({ hash })
    expect(receipt.success).toBe(true)
    expect(receipt.nonce).toBe(unused.nonce)
    await expect.poll(tank, { timeout: 5000 }).toBe(before - receipt.actualGasCost)
    await expect.poll(async () => (await opByHash(f.sandbox.store, hashOf(unused)))?.settled_at, { timeout: 5000 }).toBeTruthy()
    expect(await opByHash(f.sandbox.store, hashOf(unused))).toMatchObject({ reserved: '0', charged: '0' })
  })
})

// Last in this file: it moves the chain's clock past every sponsorship signed so far.
describe('a sponsorship nobody includes', () => {
  test('gives its whole reservation back once its validity (validUntil) has passed on chain', async () => {
    const who = await fresh()
    const before = await tank()
    const op = await sponsoredOp(who)
    expect(await tank()).toBe(before - maxCostOf(op))
    // Still includable for 10 minutes: held all the while.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await tank()).toBe(before - maxCostOf(op))
    // Earlier tests' sponsorships never included expire too: their reservations come back as well.
    const { rows } = await f.sandbox.store.query<{ held: string }>(
      "SELECT coalesce(sum(reserved), 0)::text AS held FROM user_operations WHERE status = 'paymaster_signed' AND settled_at IS NULL AND hash <> $1",
      [hashOf(op)],
    )
    await anvil('evm_increaseTime', [700])
    await anvil('evm_mine', [])
    await expect.poll(tank, { timeout: 5000 }).toBe(before + BigInt(rows[0]!.held))
    expect(await opByHash(f.sandbox.store, hashOf(op))).toMatchObject({ status: 'paymaster_signed', reserved: '0', charged: '0' })
  })
})
