import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createBundlerClient } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { http } from 'viem'
import { createClient } from '../../../sdk/index.ts'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'

// The smart-account service and its bundler attacked: operations that would make the bundler pay,
// gas-tank overdrafts, a logged-out session, another app or environment, a duplicate build.

const f = smartAccountSandbox()
const { publicClient, ethOf, accountsOf, ownerSigns, accountModelFor, tank, anvil } = f

describe('smart accounts under attack', () => {
  const rpcUrl = () => `${f.sandbox.url}/api/v1/bundler/31337`

  test('the bundler takes no operation that would not pay its way, asks for too much gas, or is not an account of its factory', async () => {
    const pool = (await f.sdk.smartAccount.gasTank({ chainId: 31337 })).pool as Address
    const poolEth = await ethOf(pool)
    const key = privateKeyToAccount(generatePrivateKey())
    const account = await accountModelFor(key)
    await anvil('anvil_setBalance', [account.address, '0xde0b6b3a7640000'])
    const bundler = createBundlerClient({ account, client: publicClient(), transport: http(rpcUrl()) })
    const call = { to: key.address, value: 0n, data: '0x' as const }
    await expect(bundler.sendUserOperation({ calls: [call], maxFeePerGas: 0n, maxPriorityFeePerGas: 0n })).rejects.toThrow(/maxFeePerGas must be at least/)
    await expect(bundler.sendUserOperation({ calls: [call], callGasLimit: 20_000_000n })).rejects.toThrow(/at most 5000000/)
    // A sender with validation code of its own (it passes only when the gas price is 0) is not taken.
    const stranger = privateKeyToAccount(generatePrivateKey()).address
    await anvil('anvil_setCode', [stranger, '0x3a15600957600080fd5b600060005260206000f3'])
    const fees = await publicClient().estimateFeesPerGas()
    const poison = {
      sender: stranger,
      nonce: '0x0',
      callData: '0x',
      callGasLimit: '0x0',
      verificationGasLimit: '0x186a0',
      preVerificationGas: '0x186a0',
      maxFeePerGas: `0x${fees.maxFeePerGas.toString(16)}`,
      maxPriorityFeePerGas: `0x${fees.maxPriorityFeePerGas.toString(16)}`,
      signature: '0x',
    }
    const refused = await fetch(rpcUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendUserOperation', params: [poison, entryPointAddress] }),
    }).then((r) => r.json())
    expect(refused.error.message).toMatch(/accounts made by its own factory/)
    // Nothing was sent: the pool (the bundler's account) spent nothing.
    expect(await ethOf(pool)).toBe(poolEth)
    // An honest operation still goes through.
    const hash = await bundler.sendUserOperation({ calls: [call] })
    expect((await bundler.waitForUserOperationReceipt({ hash })).success).toBe(true)
  })

  test('sponsored operations in flight never spend more than the gas tank holds; what an operation did not use comes back', async () => {
    const owners = await Promise.all([1, 2, 3].map((i) => f.sandbox.signUp(`smart-tank-${i}@example.com`, 'smart')))
    const accounts = await Promise.all(owners.map(async (o) => (await accountsOf(o.address))[0]!))
    const { maxCost } = (await f.sdk.smartAccount.userOp.deploy.estimate({ accountId: accounts[0]!.id, isSponsored: true })) as { maxCost: string }
    const start = (BigInt(maxCost) * 11n) / 10n
    await f.sandbox.store.query("UPDATE gas_tanks SET balance = $1 WHERE app_id = 'smart' AND environment = 'development' AND chain_id = 31337", [
      start.toString(),
    ])
    const built = await Promise.all(accounts.map((a) => f.sdk.smartAccount.userOp.deploy.hash({ accountId: a.id, isSponsored: true })))
    const signatures = await Promise.all(built.map((b, i) => ownerSigns(b.hash, owners[i]!.walletToken)))
    const results = []
    for (const [i, b] of built.entries())
      results.push(
        await f.sdk.smartAccount.userOp.submit({ hash: b.hash, userOpId: b.userOpId!, signature: signatures[i]!, isSponsored: true }).catch((e) => e),
      )
    expect(results[0]).toMatchObject({ status: 'submitted' })
    expect(results[1]).toMatchObject({ code: '402', message: expect.stringContaining('too low to sponsor') })
    expect(results[2]).toMatchObject({ code: '402' })
    const receipt = await f.sdk.smartAccount.userOp.receipt({ userOpId: built[0]!.userOpId!, wait: true })
    expect(receipt.status).toBe('included')
    expect(await tank()).toBe(start - BigInt(receipt.actualGasCost!))
  })

  test('a logged-out session is refused on the widget path; an app without smart accounts and another environment see nothing', async () => {
    const user = await f.sandbox.signUp('smart-logout@example.com', 'smart')
    const asWidget = (token: string) =>
      fetch(`${f.sandbox.url}/api/v1/smart-account`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: f.sandbox.url,
          'x-app-id': 'smart',
          'x-environment': 'development',
          'x-wallet-kit-client': 'wallet-kit-widget',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ owner: { id: user.address, provider: 'email' } }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }))
    expect((await asWidget(user.walletToken)).status).toBe(200)
    await f.sandbox.post('/api/v2/wallet/logout', {}, user.walletToken, 'smart')
    expect((await asWidget(user.walletToken)).body).toMatchObject({ status: 401, message: 'Session revoked' })

    const demo = createClient({ appId: 'demo', env: 'sandbox', clientSecret: 'demo-client-secret', baseUrls: { smartAccount: `${f.sandbox.url}/api/v1` } })
    expect(await demo.smartAccount.create({ owner: { id: user.address, provider: 'email' } }).catch((e) => e)).toMatchObject({
      code: '403',
      message: 'Smart accounts are not enabled for this app',
    })
    await f.sandbox.store.query("UPDATE gas_tanks SET balance = 5 WHERE app_id = 'smart' AND environment = 'production' AND chain_id = 31337")
    await f.sandbox.store.query("UPDATE gas_tanks SET balance = 7 WHERE app_id = 'smart' AND environment = 'development' AND chain_id = 31337")
    const production = createClient({
      appId: 'smart',
      env: 'production',
      clientSecret: 'smart-client-secret',
      baseUrls: {
        smartAccount: `${f.sandbox.url}/api/v1`,
        wallet: `${f.sandbox.url}/api/v2`,
        ramp: `${f.sandbox.url}/v1`,
        appConfig: `${f.sandbox.url}/api/v1`,
      },
    })
    expect((await production.smartAccount.gasTank({ chainId: 31337 })).balance).toBe('5')
    expect((await f.sdk.smartAccount.gasTank({ chainId: 31337 })).balance).toBe('7')
  })

  test('the same operation built twice is the same operation (its id again), never a server error', async () => {
    const user = await f.sandbox.signUp('smart-twice@example.com', 'smart')
    const [account] = await accountsOf(user.address)
    await anvil('anvil_setBalance', [account!.aaAddress, '0xde0b6b3a7640000'])
    const params = { accountId: account!.id, to: user.address, amount: '0.01' }
    const [first, second] = [await f.sdk.smartAccount.userOp.sendCoin.hash(params), await f.sdk.smartAccount.userOp.sendCoin.hash(params)]
    expect(second.hash).toBe(first.hash)
    expect(second.userOpId).toBe(first.userOpId)
  })

  test('the service builds no operation in which the account calls itself (its owner-only functions would hand it over)', async () => {
    const user = await f.sandbox.signUp('smart-self@example.com', 'smart')
    const [account] = await accountsOf(user.address)
    const takeOver = '0xf2fde38b000000000000000000000000000000000000000000000000000000000000bad0'
    const one = await f.sdk.smartAccount.userOp.signTransaction
      .hash({ accountId: account!.id, to: account!.aaAddress, data: takeOver, isSponsored: true })
      .catch((e) => e)
    expect(one).toMatchObject({ code: '400', message: 'A smart account does not call itself' })
    const batch = await f.sdk.smartAccount.userOp.signTransaction
      .hash({ accountId: account!.id, calls: [{ to: user.address }, { to: account!.aaAddress.toLowerCase(), data: takeOver }], isSponsored: true })
      .catch((e) => e)
    expect(batch).toMatchObject({ code: '400', message: 'A smart account does not call itself' })
  })
})
