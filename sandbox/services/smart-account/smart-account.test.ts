import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, http, parseEther, parseUnits, zeroAddress, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createBundlerClient, createPaymasterClient } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import { viemChainOf } from '../../contracts/viem-chain.ts'
import { accountModel } from './accounts.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'
import { topUpMessage } from './top-up.ts'

// The smart-account service, its bundler and its paymaster against real anvil chains, through the
// sdk's HMAC-signed client (an app's back end) and the wallet service that holds the owner's key.

const f = smartAccountSandbox()
const { chain, publicClient, wallet, ethOf, demoOf, accountsOf, ownerSigns, accountModelFor, tank } = f

/** Builds a sponsored operation of `kind`, has its owner (the wallet of `token`) sign it, submits it and waits for its receipt. */
async function runOp(kind: 'deploy' | 'sendToken' | 'signTransaction', params: object, token = f.owner.walletToken) {
  const built = await (f.sdk.smartAccount.userOp[kind].hash as (p: object) => Promise<{ hash: string; userOpId: string }>)({ ...params, isSponsored: true })
  const signature = await ownerSigns(built.hash, token)
  await f.sdk.smartAccount.userOp.submit({ hash: built.hash, userOpId: built.userOpId, signature, isSponsored: true })
  const receipt = await f.sdk.smartAccount.userOp.receipt({ userOpId: built.userOpId, wait: true })
  return { built, signature, receipt }
}

describe('smart accounts', () => {
  test('an owner gets one counterfactual account per local chain, the same on every ask; another owner another one', async () => {
    const first = await accountsOf(f.owner.address)
    expect(first.map((a) => [a.chainId, a.network, a.status])).toEqual([
      [31337, 'local-1', 'not_deployed'],
      [31338, 'local-2', 'not_deployed'],
    ])
    const model = await accountModel({ client: publicClient() } as never, f.owner.address)
    expect(first[0]!.aaAddress).toBe(await model.getAddress())
    expect(await accountsOf(f.owner.address)).toEqual(first)
    const other = await accountsOf(privateKeyToAccount(generatePrivateKey()).address)
    expect(other[0]!.aaAddress).not.toBe(first[0]!.aaAddress)
  })

  test('a signature of the smart account verifies with viem before deployment (ERC-6492) and after', async () => {
    const signer = await f.sandbox.signUp('smart-signer@example.com', 'smart')
    const [account] = await accountsOf(signer.address)
    // The wallet service computes the ERC-7739 hash for the account and answers the account's signature.
    const sign = async (message: string) =>
      (await wallet('sign-account-message', { accountId: account!.id, message }, signer.walletToken)).body.data.signature as Hex
    const before = await sign('hello before')
    expect(await publicClient().verifyMessage({ address: account!.aaAddress as Address, message: 'hello before', signature: before })).toBe(true)
    expect(await publicClient().verifyMessage({ address: account!.aaAddress as Address, message: 'something else', signature: before })).toBe(false)

    const typedData = {
      domain: { name: 'Mail', version: '1', chainId: 31337, verifyingContract: demoContracts.demoToken.address },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'hi' },
    } as const
    const typedSignature = (await wallet('sign-account-typed-data', { accountId: account!.id, typedData: JSON.stringify(typedData) }, signer.walletToken)).body
      .data.signature as Hex
    expect(await publicClient().verifyTypedData({ address: account!.aaAddress as Address, ...typedData, signature: typedSignature })).toBe(true)

    const { receipt } = await runOp('deploy', { accountId: account!.id }, signer.walletToken)
    expect(receipt).toMatchObject({ status: 'included', success: true })
    expect((await accountsOf(signer.address))[0]!.status).toBe('deployed')
    const after = await sign('hello after')
    expect(after.length).toBe(2 + 65 * 2)
    expect(await publicClient().verifyMessage({ address: account!.aaAddress as Address, message: 'hello after', signature: after })).toBe(true)
  })

  test("an app back end's owner (a key it holds) signs the service's ERC-7739 hash; buildSignature answers the account's signature, the owner's only", async () => {
    const key = privateKeyToAccount(generatePrivateKey())
    const [account] = await accountsOf(key.address)
    const { hash } = await f.sdk.smartAccount.signMessageHash({ accountId: account!.id, message: 'from the back end' })
    const stranger = await privateKeyToAccount(generatePrivateKey()).sign({ hash: hash as Hex })
    await expect(f.sdk.smartAccount.buildSignature({ accountId: account!.id, hash, signature: stranger })).rejects.toMatchObject({ code: '400' })
    const { signature } = await f.sdk.smartAccount.buildSignature({ accountId: account!.id, hash, signature: await key.sign({ hash: hash as Hex }) })
    const address = account!.aaAddress as Address
    expect(await publicClient().verifyMessage({ address, message: 'from the back end', signature: signature as Hex })).toBe(true)
  })

  test('a sponsored deploy then a sponsored DEMO send: DEMO moves, the owner and the account spend no ETH, the gas tank pays', async () => {
    const [account] = await accountsOf(f.owner.address)
    const aa = account!.aaAddress as Address
    // The owner gives the smart account some DEMO from its own wallet (an ordinary transaction).
    const funded = await wallet('send-token', { network: 'local-1', to: aa, tokenAddress: demoContracts.demoToken.address, amount: '10' })
    expect(funded.status).toBe(200)
    const ownerEth = await ethOf(f.owner.address)
    const tankBefore = await tank()
    const receiver = privateKeyToAccount(generatePrivateKey()).address

    const deploy = await runOp('deploy', { accountId: account!.id })
    expect(deploy.receipt).toMatchObject({ status: 'included', success: true })
    const send = await runOp('sendToken', { accountId: account!.id, to: receiver, tokenAddress: demoContracts.demoToken.address, amount: '2.5' })
    expect(send.receipt).toMatchObject({ status: 'included', success: true })

    expect(await demoOf(receiver)).toBe(parseUnits('2.5', 18))
    expect(await demoOf(aa)).toBe(parseUnits('7.5', 18))
    expect(await ethOf(f.owner.address)).toBe(ownerEth)
    expect(await ethOf(aa)).toBe(0n)
    const spent = BigInt(deploy.receipt.actualGasCost!) + BigInt(send.receipt.actualGasCost!)
    expect(await tank()).toBe(tankBefore - spent)
    console.info(`sponsored deploy: ${deploy.receipt.actualGasUsed} gas; sponsored DEMO send: ${send.receipt.actualGasUsed} gas`)
  })

  test('a batch is one operation: both calls land, or neither', async () => {
    const signer = await f.sandbox.signUp('smart-batch@example.com', 'smart')
    const [account] = await accountsOf(signer.address)
    const aa = account!.aaAddress as Address
    await wallet('send-token', { network: 'local-1', to: aa, tokenAddress: demoContracts.demoToken.address, amount: '3' }, signer.walletToken)
    const [a, b] = [privateKeyToAccount(generatePrivateKey()).address, privateKeyToAccount(generatePrivateKey()).address]
    const transfer = (to: Address, amount: string) => ({
      to: demoContracts.demoToken.address,
      data: encodeTransfer(to, parseUnits(amount, 18)),
    })
    const ok = await runOp('signTransaction', { accountId: account!.id, calls: [transfer(a, '1'), transfer(b, '1')] }, signer.walletToken)
    expect(ok.receipt).toMatchObject({ status: 'included', success: true })
    expect([await demoOf(a), await demoOf(b)]).toEqual([parseUnits('1', 18), parseUnits('1', 18)])
    // A batch that is fine when built, but whose second call fails when it runs: the account's
    // DEMO is moved away in between (anvil lets the test act as the account). The first call is undone with it.
    const batch = await (f.sdk.smartAccount.userOp.signTransaction.hash as (p: object) => Promise<{ hash: string; userOpId: string }>)({
      accountId: account!.id,
      calls: [transfer(a, '0.5'), transfer(b, '0.5')],
      isSponsored: true,
    })
    await asAccount(aa, transfer(privateKeyToAccount(generatePrivateKey()).address, '0.75'))
    const signature = await ownerSigns(batch.hash, signer.walletToken)
    await f.sdk.smartAccount.userOp.submit({ hash: batch.hash, userOpId: batch.userOpId, signature, isSponsored: true })
    const failed = await f.sdk.smartAccount.userOp.receipt({ userOpId: batch.userOpId, wait: true })
    expect(failed).toMatchObject({ status: 'included', success: false })
    expect([await demoOf(a), await demoOf(b), await demoOf(aa)]).toEqual([parseUnits('1', 18), parseUnits('1', 18), parseUnits('0.25', 18)])
  })

  test('refused: a submit whose sponsorship disagrees with its hash, a tampered or foreign signature, a replayed submit', async () => {
    const [account] = await accountsOf(f.owner.address)
    const built = await f.sdk.smartAccount.userOp.signTransaction.hash({ accountId: account!.id, to: f.owner.address, value: '0', isSponsored: true } as never)
    const signature = await ownerSigns(built.hash)
    const submit = (params: object) =>
      f.sdk.smartAccount.userOp.submit({ hash: built.hash, userOpId: built.userOpId!, signature, isSponsored: true, ...params }).catch((error) => error)
    expect(await submit({ isSponsored: false })).toMatchObject({ code: '400', message: expect.stringContaining('isSponsored disagrees') })
    const tampered = `${signature.slice(0, 10)}${signature[10] === 'a' ? 'b' : 'a'}${signature.slice(11)}`
    expect(await submit({ signature: tampered })).toMatchObject({ code: '400' })
    const stranger = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: { raw: built.hash as Hex } })
    expect(await submit({ signature: stranger })).toMatchObject({ code: '400', message: expect.stringContaining("not the owner's") })
    expect(await submit({ hash: `0x${'11'.repeat(32)}` })).toMatchObject({ code: '400' })
    expect(await submit({})).toMatchObject({ userOpHash: built.hash.toLowerCase(), status: 'submitted' })
    expect(await submit({})).toMatchObject({ code: '409' })
  })

  test('an empty gas tank refuses sponsorship with a clear message; a top-up with a made-up txHash is refused, a real one is credited once', async () => {
    await f.sandbox.store.query("UPDATE gas_tanks SET balance = 0 WHERE app_id = 'smart' AND chain_id = 31338")
    const accounts = await accountsOf(f.owner.address)
    const second = accounts.find((a) => a.chainId === 31338)!
    const refused = await f.sdk.smartAccount.userOp.deploy.hash({ accountId: second.id, isSponsored: true } as never).catch((error) => error)
    expect(refused).toMatchObject({ code: '402', message: expect.stringContaining('gas tank on chain 31338 is too low') })

    const pool = (await f.sdk.smartAccount.gasTank({ chainId: 31338 })).pool as Address
    const base = { chainId: 31338, receiverOwnerId: 'smart', tokenAddress: zeroAddress, poolAddress: pool, immediate: true }
    const fake = `0x${'ab'.repeat(32)}` as const
    expect(await f.sdk.smartAccount.topUp({ ...base, txHash: fake, signature: '0x' }).catch((e) => e)).toMatchObject({
      code: '400',
      message: expect.stringContaining('No transaction'),
    })

    const payer = privateKeyToAccount(generatePrivateKey())
    const second2 = f.sandbox.chains[1]!
    await fetch(second2.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [payer.address, '0xde0b6b3a7640000'] }),
    })
    const payerClient = createWalletClient({ account: payer, chain: viemChainOf(second2), transport: http(second2.rpcUrl) })
    const txHash = await payerClient.sendTransaction({ to: pool, value: parseEther('0.5') })
    await createPublicClient({ chain: viemChainOf(second2), transport: http(second2.rpcUrl), pollingInterval: 50 }).waitForTransactionReceipt({ hash: txHash })
    const wrongSigner = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: topUpMessage('smart', 31338, txHash) })
    expect(await f.sdk.smartAccount.topUp({ ...base, txHash, signature: wrongSigner }).catch((e) => e)).toMatchObject({ code: '400' })
    const signature = await payer.signMessage({ message: topUpMessage('smart', 31338, txHash) })
    expect(await f.sdk.smartAccount.topUp({ ...base, txHash, signature })).toMatchObject({
      amount: parseEther('0.5').toString(),
      balance: parseEther('0.5').toString(),
    })
    expect(await f.sdk.smartAccount.topUp({ ...base, txHash, signature }).catch((e) => e)).toMatchObject({ code: '409' })
    const deploy = await f.sdk.smartAccount.userOp.deploy.hash({ accountId: second.id, isSponsored: true } as never)
    expect(deploy.hash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  test("viem's bundler and paymaster clients, unmodified, send a sponsored user operation through the standard endpoint", async () => {
    const key = privateKeyToAccount(generatePrivateKey())
    const client = publicClient()
    const account = await accountModelFor(key)
    const url = `${f.sandbox.url}/api/v1/bundler/31337`
    const headers = { 'x-app-id': 'smart', 'x-environment': 'development', 'x-client-secret': 'smart-client-secret' }
    const paymaster = createPaymasterClient({ transport: http(url, { fetchOptions: { headers } }) })
    const bundler = createBundlerClient({ account, client, paymaster, transport: http(url), pollingInterval: 100 })
    expect(await bundler.getSupportedEntryPoints()).toEqual([entryPointAddress])
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const hash = await bundler.sendUserOperation({ calls: [{ to: receiver, value: 0n, data: '0x' }] })
    const receipt = await bundler.waitForUserOperationReceipt({ hash })
    expect(receipt.success).toBe(true)
    expect(await client.getCode({ address: account.address })).toBeTruthy()
    expect(await ethOf(account.address)).toBe(0n)
    expect((await bundler.getUserOperation({ hash })).transactionHash).toBe(receipt.receipt.transactionHash)
    // Sponsorship needs the app's secret.
    const stranger = createPaymasterClient({ transport: http(url, { fetchOptions: { headers: { ...headers, 'x-client-secret': 'nope' } } }) })
    const unpaid = createBundlerClient({ account, client, paymaster: stranger, transport: http(url) })
    await expect(unpaid.sendUserOperation({ calls: [{ to: receiver, value: 0n, data: '0x' }] })).rejects.toThrow(/x-client-secret/)
  })
})

/** Sends a call as the account itself (anvil impersonation), gas paid by a balance given and taken back. */
async function asAccount(address: Address, call: { to: Address; data: Hex }) {
  const rpc = (method: string, params: unknown[]) =>
    fetch(chain().rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    }).then((r) => r.json())
  await rpc('anvil_setBalance', [address, '0xde0b6b3a7640000'])
  await rpc('anvil_impersonateAccount', [address])
  const sent = (await rpc('eth_sendTransaction', [{ from: address, to: call.to, data: call.data }])) as { result: Hex }
  await publicClient().waitForTransactionReceipt({ hash: sent.result })
  await rpc('anvil_stopImpersonatingAccount', [address])
  await rpc('anvil_setBalance', [address, '0x0'])
}

function encodeTransfer(to: Address, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
}
