import {
  decodeAbiParameters,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  http,
  isAddressEqual,
  keccak256,
  numberToHex,
  pad,
  parseEther,
  slice,
  type Address,
  type Hex,
} from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint07Abi, formatUserOperationRequest, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import { maxCostOf } from './bundler-policy.ts'
import { stubSignature } from './operations.ts'
import { smartAccountSandbox } from './smart-accounts.fixture.ts'

// The bundler's JSON-RPC as EIP-7769 has it: each error code for its condition, and a receipt's
// logs limited to its own operation. The bundler gathers operations for 1.5 s here, so two sent
// together go in one bundle.

const f = smartAccountSandbox({ bundleDelayMs: 1500 })
const { publicClient, accountModelFor, anvil } = f

const url = () => `${f.sandbox.url}/api/v1/bundler/31337`
const appHeaders = { 'x-app-id': 'smart', 'x-environment': 'development', 'x-client-secret': 'smart-client-secret' }
type RpcAnswer = { result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } }
const rpc = (method: string, params: unknown[]) =>
  fetch(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }).then(
    (r) => r.json() as Promise<RpcAnswer>,
  )
const send = (op: UserOperation<'0.7'>) => rpc('eth_sendUserOperation', [formatUserOperationRequest(op), entryPointAddress])

type Op = UserOperation<'0.7'>
const approve = (spender: Address, amount: bigint) => ({
  to: demoContracts.demoToken.address,
  value: 0n,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
})
const someone = () => privateKeyToAccount(generatePrivateKey()).address

/** A fresh owner's account (not deployed), with `eth` on it, and viem's bundler client for it (sponsored by app smart when asked). */
async function fresh(options: { eth?: bigint; sponsored?: boolean } = {}) {
  const account = await accountModelFor(privateKeyToAccount(generatePrivateKey()))
  if (options.eth) await anvil('anvil_setBalance', [account.address, numberToHex(options.eth)])
  const paymaster = options.sponsored ? createPaymasterClient({ transport: http(url(), { fetchOptions: { headers: appHeaders } }) }) : undefined
  const bundler = createBundlerClient({ account, client: publicClient(), transport: http(url()), pollingInterval: 100, ...(paymaster ? { paymaster } : {}) })
  /** Prepared (estimated; sponsored through pm_getPaymasterData) and signed by the owner, not sent. */
  const signedOp = async (calls = [approve(someone(), 1n)]): Promise<Op> => {
    const prepared = (await bundler.prepareUserOperation({ calls })) as unknown as Op
    return { ...prepared, signature: await account.signUserOperation(prepared) }
  }
  return { account, bundler, signedOp }
}

/** Where the EntryPoint keeps an address's deposit: `deposits` is its first storage variable, `deposit` its struct's first word. */
const depositSlot = (address: Address) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [address, 0n]))
const depositOf = (address: Address) =>
  publicClient().readContract({ address: entryPointAddress, abi: entryPoint07Abi, functionName: 'balanceOf', args: [address] })

type Case = { code: number; condition: string; produce: () => Promise<RpcAnswer>; expected: (answer: RpcAnswer) => void }

/** One case per code the bundler produces, each with the condition that produces it (the time-range cases move the chain's clock: last). */
const cases: Case[] = [
  {
    code: -32602,
    condition: 'a malformed operation field',
    produce: async () =>
      rpc('eth_sendUserOperation', [{ ...formatUserOperationRequest(await (await fresh()).signedOp()), sender: '0x1234' }, entryPointAddress]),
    expected: (answer) => expect(answer.error).toMatchObject({ code: -32602, message: 'userOp.sender must be an address' }),
  },
  {
    code: -32500,
    condition: "the EntryPoint's simulation refuses it (AA21: the account cannot pay its prefund)",
    produce: async () => send(await (await fresh()).signedOp()),
    expected: (answer) => expect(answer.error).toEqual({ code: -32500, message: "AA21 didn't pay prefund" }),
  },
  {
    code: -32501,
    condition: "the sandbox's paymaster never sponsored it (no pm_getPaymasterData): data.paymaster names it",
    produce: async () => {
      const op = await (await fresh({ sponsored: true })).signedOp()
      // Another call than the one sponsored: a sponsorship the paymaster never gave.
      return send({ ...op, callData: await accountModelFor(privateKeyToAccount(generatePrivateKey())).then((a) => a.encodeCalls([approve(someone(), 2n)])) })
    },
    expected: (answer) =>
      expect(answer.error).toMatchObject({
        code: -32501,
        message: expect.stringMatching(/Unknown sponsorship/),
        data: { paymaster: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) },
      }),
  },
  {
    code: -32507,
    condition: "the account's signature check fails (AA24)",
    produce: async () => send({ ...(await (await fresh({ eth: parseEther('1') })).signedOp()), signature: stubSignature }),
    expected: (answer) => expect(answer.error).toEqual({ code: -32507, message: 'AA24 signature error' }),
  },
  {
    code: -32508,
    condition: "the paymaster's EntryPoint deposit cannot pay for it (AA31): data.paymaster names it",
    produce: async () => {
      const op = await (await fresh({ sponsored: true })).signedOp()
      const paymaster = op.paymaster!
      const slot = depositSlot(paymaster)
      const deposit = await depositOf(paymaster)
      await anvil('anvil_setStorageAt', [entryPointAddress, slot, pad('0x1')])
      try {
        expect(await depositOf(paymaster)).toBe(1n)
        return await send(op)
      } finally {
        await anvil('anvil_setStorageAt', [entryPointAddress, slot, pad(numberToHex(deposit))])
        expect(await depositOf(paymaster)).toBe(deposit)
      }
    },
    expected: (answer) => {
      expect(answer.error).toMatchObject({ code: -32508, message: 'AA31 paymaster deposit too low' })
      expect(answer.error?.data?.paymaster).toMatch(/^0x[0-9a-fA-F]{40}$/)
    },
  },
  {
    code: -32521,
    condition: "estimation: the operation's call reverts",
    produce: async () => {
      const { account } = await fresh()
      const transfer = {
        to: demoContracts.demoToken.address,
        value: 0n,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [someone(), 1n] }),
      }
      const op = { sender: account.address, nonce: '0x0', ...(await account.getFactoryArgs()), callData: await account.encodeCalls([transfer]) }
      const zero = { callGasLimit: '0x0', verificationGasLimit: '0x0', preVerificationGas: '0x0', maxFeePerGas: '0x0', maxPriorityFeePerGas: '0x0' }
      return rpc('eth_estimateUserOperationGas', [{ ...op, ...zero, signature: stubSignature }, entryPointAddress])
    },
    expected: (answer) => expect(answer.error).toMatchObject({ code: -32521, message: expect.stringMatching(/call reverts/) }),
  },
  {
    code: -32503,
    condition: "its sponsorship expires within 30 s (the chain's clock set to 10 s before its validUntil)",
    produce: async () => {
      const op = await (await fresh({ sponsored: true })).signedOp()
      const { timestamp } = await publicClient().getBlock()
      const [validUntil] = decodeAbiParameters([{ type: 'uint48' }], slice(op.paymasterData!, 0, 32))
      await anvil('evm_setNextBlockTimestamp', [validUntil - 10])
      await anvil('evm_mine', [])
      expect(validUntil - 10).toBeGreaterThan(Number(timestamp))
      const answer = await send(op)
      return { ...answer, expectedData: { paymaster: op.paymaster, validUntil, validAfter: 0 } } as RpcAnswer
    },
    expected: (answer) => {
      const { expectedData } = answer as RpcAnswer & { expectedData: object }
      expect(answer.error).toEqual({ code: -32503, message: expect.stringMatching(/sponsorship expires within 30 s/), data: expectedData })
    },
  },
  {
    code: -32503,
    condition: "out of its time range (AA32: the paymaster's sponsorship expired): data has the paymaster's window",
    produce: async () => {
      const op = await (await fresh({ sponsored: true })).signedOp()
      // The sponsorship is valid for 10 minutes: the chain's clock moves 11 minutes on.
      await anvil('evm_increaseTime', [660])
      await anvil('evm_mine', [])
      const answer = await send(op)
      const [validUntil] = decodeAbiParameters([{ type: 'uint48' }], slice(op.paymasterData!, 0, 32))
      return { ...answer, expectedData: { paymaster: op.paymaster, validUntil, validAfter: 0 } } as RpcAnswer
    },
    expected: (answer) => {
      const { expectedData } = answer as RpcAnswer & { expectedData: { paymaster: Address; validUntil: number } }
      expect(expectedData.validUntil).toBeGreaterThan(0)
      expect(answer.error).toEqual({ code: -32503, message: 'AA32 paymaster expired or not due', data: expectedData })
    },
  },
]

describe('the bundler JSON-RPC (EIP-7769)', () => {
  test("eth_getUserOperationReceipt's logs are its own operation's, not those of others in the same bundle", async () => {
    const [one, two] = [await fresh({ eth: parseEther('1') }), await fresh({ eth: parseEther('1') })]
    const [spenderOne, spenderTwo] = [someone(), someone()]
    const [hashOne, hashTwo] = await Promise.all([
      one.bundler.sendUserOperation({ calls: [approve(spenderOne, 1n)] }),
      two.bundler.sendUserOperation({ calls: [approve(spenderTwo, 2n), approve(spenderTwo, 3n)] }),
    ])
    await Promise.all([one.bundler.waitForUserOperationReceipt({ hash: hashOne }), two.bundler.waitForUserOperationReceipt({ hash: hashTwo })])
    type Receipt = { logs: { address: Address; topics: Hex[]; data: Hex }[]; receipt: { transactionHash: Hex; logs: unknown[] } }
    const receiptOne = (await rpc('eth_getUserOperationReceipt', [hashOne])).result as Receipt
    const receiptTwo = (await rpc('eth_getUserOperationReceipt', [hashTwo])).result as Receipt
    // One bundle: both deployed (validation-phase logs), then each executed.
    expect(receiptOne.receipt.transactionHash).toBe(receiptTwo.receipt.transactionHash)
    const approvals = (receipt: Receipt) =>
      receipt.logs.map((log) => ({
        token: isAddressEqual(log.address, demoContracts.demoToken.address),
        owner: slice(log.topics[1]!, 12),
        spender: slice(log.topics[2]!, 12),
        amount: BigInt(log.data),
      }))
    expect(approvals(receiptOne)).toEqual([{ token: true, owner: one.account.address.toLowerCase(), spender: spenderOne.toLowerCase(), amount: 1n }])
    expect(approvals(receiptTwo)).toEqual([
      { token: true, owner: two.account.address.toLowerCase(), spender: spenderTwo.toLowerCase(), amount: 2n },
      { token: true, owner: two.account.address.toLowerCase(), spender: spenderTwo.toLowerCase(), amount: 3n },
    ])
    // The transaction receipt is the whole bundle's.
    expect(receiptOne.receipt.logs.length).toBeGreaterThan(receiptOne.logs.length + receiptTwo.logs.length)
  }, 60_000)

  test("-32508 also when the paymaster's deposit pays for the operation alone but not with those pending for it", async () => {
    const [one, two] = [await fresh({ sponsored: true }), await fresh({ sponsored: true })]
    const [first, second] = [await one.signedOp(), await two.signedOp()]
    const paymaster = first.paymaster!
    const deposit = await depositOf(paymaster)
    // Enough for either operation's maximum cost, not for both.
    await anvil('anvil_setStorageAt', [entryPointAddress, depositSlot(paymaster), pad(numberToHex(maxCostOf(first) + maxCostOf(second) - 1n))])
    let answers: RpcAnswer[]
    try {
      answers = [await send(first), await send(second)]
    } finally {
      await anvil('anvil_setStorageAt', [entryPointAddress, depositSlot(paymaster), pad(numberToHex(deposit))])
    }
    expect(answers[0]).toMatchObject({ result: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    expect(answers[1]!.error).toMatchObject({
      code: -32508,
      message: expect.stringMatching(/deposit .* cannot pay for this operation and the 1 pending/),
      data: { paymaster },
    })
    // The first goes on: bundled once the deposit is back (the bundler waits 1.5 s).
    expect((await one.bundler.waitForUserOperationReceipt({ hash: answers[0]!.result as Hex })).success).toBe(true)
  }, 60_000)

  test.each(cases)('$code: $condition', async ({ produce, expected }) => expected(await produce()), 60_000)
})
