import { createPublicClient, encodeFunctionData, erc20Abi, http, numberToHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'

// A stock smart-account client given nothing but the bundler's URL (permissionless's
// createSmartAccountClient with a bundler transport, as its guides write it) reads its fees from that
// URL and estimates before it has any gas figure: both must work against the sandbox's bundler.

const f = smartAccountSandbox()
const url = () => `${f.sandbox.url}/api/v1/bundler/31337`
type RpcAnswer = { result?: unknown; error?: { code: number; message: string } }
const rpc = (method: string, params: unknown[] = []) =>
  fetch(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }).then(
    (r) => r.json() as Promise<RpcAnswer>,
  )

type Account = Awaited<ReturnType<typeof f.accountModelFor>>
// An undeployed account's first operation as a stock client sends it for estimation: no gas or fee fields.
const partialOp = async (account: Account, calls: Parameters<Account['encodeCalls']>[0]) => {
  const { factory, factoryData } = await account.getFactoryArgs()
  return {
    sender: account.address,
    nonce: numberToHex(await account.getNonce()),
    factory,
    factoryData,
    callData: await account.encodeCalls(calls),
    signature: await account.getStubSignature(),
  }
}

describe('the bundler URL alone serves a stock client', () => {
  test('fees come from the bundler URL: viem estimateFeesPerGas over it', async () => {
    const overBundler = createPublicClient({ chain: f.publicClient().chain, transport: http(url()) })
    const fees = await overBundler.estimateFeesPerGas()
    expect(fees.maxFeePerGas).toBeGreaterThan(0n)
    expect(fees.maxPriorityFeePerGas).toBeGreaterThanOrEqual(0n)
    expect(typeof (await rpc('eth_blockNumber')).result).toBe('string')
  })

  test('eth_estimateUserOperationGas takes an operation with no gas or fee fields (they default to zero)', async () => {
    const account = await f.accountModelFor(privateKeyToAccount(generatePrivateKey()))
    await f.anvil('anvil_setBalance', [account.address, numberToHex(10n ** 18n)])
    const op = await partialOp(account, [
      { to: demoContracts.demoToken.address, value: 0n, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [account.address, 1n] }) },
    ])
    const answer = await rpc('eth_estimateUserOperationGas', [op, entryPointAddress])
    expect(answer.error).toBeUndefined()
    expect(answer.result).toMatchObject({ callGasLimit: expect.stringMatching(/^0x[1-9a-f]/), verificationGasLimit: expect.stringMatching(/^0x[1-9a-f]/) })
  })

  test('only cheap reads pass: no full blocks, no simulations, no state changes through the bundler URL', async () => {
    expect((await rpc('eth_getBlockByNumber', ['latest', true])).error?.code).toBe(-32602)
    expect((await rpc('eth_getBlockByNumber', [{ blockHash: '0x00' }, false])).error?.code).toBe(-32602)
    for (const method of ['eth_call', 'eth_estimateGas', 'eth_sendRawTransaction', 'anvil_setBalance', 'eth_getBalance'])
      expect((await rpc(method, [])).error?.code, method).toBe(-32601)
  })

  // Red team: the estimate simulated any contract, for up to a block's gas, for anyone.
  test('estimation simulates only accounts the bundler takes, and each for at most an operation’s gas', async () => {
    const burner = '0x00000000000000000000000000000000000b0b0b'
    // Loops while gas lasts (about 29M gas in all), then stops: a call that succeeds with enough gas.
    await f.anvil('anvil_setCode', [burner, '0x621100005b600190038060045700'])
    const notAnAccount = await rpc('eth_estimateUserOperationGas', [{ sender: burner, nonce: '0x0', callData: '0x01' }, entryPointAddress])
    expect(notAnAccount.error).toMatchObject({ code: -32602, message: expect.stringMatching(/made by its own factory/) })

    const account = await f.accountModelFor(privateKeyToAccount(generatePrivateKey()))
    const op = await partialOp(account, [{ to: burner, value: 0n, data: '0x' }])
    const burning = await rpc('eth_estimateUserOperationGas', [op, entryPointAddress])
    expect(burning.error).toMatchObject({ code: -32521 })
  })
})
