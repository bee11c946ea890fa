import { describe, expect, test } from 'vitest'
import { SdkError } from '../../sdk/errors.ts'
import { operationRequestHash } from '../../sdk/wallet/transaction-hash.ts'
import { testContext } from '../rpc/context.fixture.ts'
import { alice } from '../wallet.fixture.ts'
import { transactionStepUp } from './embedded.ts'

const tick = () => new Promise((r) => setTimeout(r, 0))
const aa = '0x000000000000000000000000000000000000aa00' as const
const other = '0x00000000000000000000000000000000000000b0' as const
const opHash = `0x${'ab'.repeat(32)}` as const

/** The widget's RPC handlers with a smart-account service that records what it is asked. */
function smartContext() {
  const t = testContext({ session: alice })
  const record =
    <R>(name: string, answer: (params: Record<string, unknown>) => R) =>
    async (params: Record<string, unknown>) => {
      t.calls.push([name, params])
      return answer(params)
    }
  let receipt: Record<string, unknown> = { status: 'included', txHash: `0x${'cd'.repeat(32)}`, success: true }
  const service = {
    owner: {
      signUserOperation: record('signUserOperation', () => ({ signature: '0x04' })),
      signAccountMessage: record('signAccountMessage', () => ({ signature: '0x06' })),
      signAccountTypedData: record('signAccountTypedData', () => ({ signature: '0x07' })),
    },
    userOp: {
      signTransaction: { hash: record('smart.hash', () => ({ hash: opHash, userOpId: 'op-1' })) },
      submit: record('smart.submit', () => ({ status: 'submitted' })),
      receipt: record('smart.receipt', () => receipt),
    },
  }
  Object.assign(t.ctx.client, { smartAccount: service })
  t.ctx.rpc = () =>
    ({
      request: async () => ({ status: '0x1', logs: [], blockHash: '0x01', blockNumber: '0x2', gasUsed: '0x3', transactionHash: receipt.txHash }),
    }) as never
  const confirmNext = async <T>(answer: Promise<T>) => {
    await tick()
    await tick()
    await t.confirmations.confirm()
    return answer
  }
  const setReceipt = (r: Record<string, unknown>) => {
    receipt = r
  }
  return { ...t, service, confirmNext, setReceipt }
}

describe('the smart account in use on the site', () => {
  test('the host sees its address; messages and typed data are signed by the wallet service for the account (it computes the ERC-7739 hash); back to the wallet', async () => {
    const t = smartContext()
    await t.wallet.restore()
    await t.wallet.showSmartAccount({ address: aa, accounts: { '31337': 'acc-1' } })
    expect(t.events.at(-1)).toEqual(['accountsChanged', [aa]])
    expect(await t.call('eth_accounts')).toEqual({ result: [aa] })
    // Kept with the session: a reload of the frame finds it.
    expect(t.stored()?.smartAccount).toEqual({ address: aa, accounts: { '31337': 'acc-1' } })
    // Requests name the account the host sees; the owner's own address is another account now.
    expect(await t.call('personal_sign', ['0x6869', alice.address])).toMatchObject({ code: 4100 })
    expect(await t.confirmNext(t.call('personal_sign', ['0x6869', aa]))).toEqual({ result: '0x06' })
    const typed = JSON.stringify({
      types: { Mail: [{ name: 'body', type: 'string' }] },
      primaryType: 'Mail',
      domain: { name: 'Site', chainId: 31337 },
      message: { body: 'hi' },
    })
    expect(await t.confirmNext(t.call('eth_signTypedData_v4', [aa, typed]))).toEqual({ result: '0x07' })
    // The frame sends what is to be signed and the account, never a hash for the owner to sign.
    expect(t.calls).toEqual([
      ['signAccountMessage', { accountId: 'acc-1', message: '0x6869' }],
      ['signAccountTypedData', { accountId: 'acc-1', typedData: typed }],
    ])
    await t.wallet.showSmartAccount(null)
    expect(t.events.at(-1)).toEqual(['accountsChanged', [alice.address]])
    expect(await t.call('eth_accounts')).toEqual({ result: [alice.address] })
    expect(t.stored()?.smartAccount).toBeUndefined()
  })

  test('a send is one sponsored operation: no fee estimate, the owner signs its hash, the answer is the transaction once included', async () => {
    const t = smartContext()
    await t.wallet.restore()
    await t.wallet.showSmartAccount({ address: aa, accounts: { '31337': 'acc-1' } })
    const sending = t.call('eth_sendTransaction', [{ from: aa, to: alice.address, value: '0xde0b6b3a7640000', data: '0x1234' }])
    await tick()
    await tick()
    expect(t.wallet.ui.get().confirmation?.payload).toMatchObject({ sponsored: true, to: alice.address, value: '1' })
    expect(t.wallet.ui.get().confirmation?.payload.fee).toBeUndefined()
    await t.confirmations.confirm()
    expect(await sending).toEqual({ result: `0x${'cd'.repeat(32)}` })
    expect(t.calls).toEqual([
      ['smart.hash', { accountId: 'acc-1', calls: [{ to: alice.address, value: '1000000000000000000', data: '0x1234' }], isSponsored: true }],
      // The wallet service signs the operation it stored, by its id: the frame sends no hash to be signed.
      ['signUserOperation', { userOpId: 'op-1' }],
      ['smart.submit', { hash: opHash, userOpId: 'op-1', signature: '0x04', isSponsored: true }],
      ['smart.receipt', { userOpId: 'op-1', wait: true }],
    ])
    // An operation that failed is shown as the confirmation's error (Try Again), never answered as a hash.
    t.setReceipt({ status: 'failed', reason: 'AA23 reverted' })
    const failing = t.call('eth_sendTransaction', [{ from: aa, to: alice.address }])
    await tick()
    await tick()
    await t.confirmations.confirm()
    expect(t.wallet.ui.get().confirmation).toMatchObject({ status: 'error', error: expect.stringContaining('AA23') })
    t.confirmations.reject()
    expect(await failing).toMatchObject({ code: -32603, message: expect.stringContaining('AA23') })
    expect(await t.call('eth_signTransaction', [{ from: aa, to: alice.address }])).toMatchObject({ code: 4200 })
    // Included but reverted: an error, never the bundle's transaction hash.
    t.setReceipt({ status: 'included', txHash: `0x${'cd'.repeat(32)}`, success: false })
    const reverted = t.call('eth_sendTransaction', [{ from: aa, to: alice.address }])
    await tick()
    await tick()
    await t.confirmations.confirm()
    expect(t.wallet.ui.get().confirmation).toMatchObject({ status: 'error', error: expect.stringContaining('reverted') })
    t.confirmations.reject()
    expect(await reverted).toMatchObject({ code: -32603 })
    // The nonce a site names is not the operation's: not shown.
    t.setReceipt({ status: 'included', txHash: `0x${'cd'.repeat(32)}`, success: true })
    const withNonce = t.call('eth_sendTransaction', [{ from: aa, to: alice.address, nonce: '0x5' }])
    await tick()
    await tick()
    expect(t.wallet.ui.get().confirmation?.payload.nonce).toBeUndefined()
    t.confirmations.reject()
    await withNonce
  })

  test('above the step-up threshold the owner authorises the operation only with a code asked for its calls, then once more with the proof', async () => {
    const t = smartContext()
    await t.wallet.restore()
    await t.wallet.showSmartAccount({ address: aa, accounts: { '31337': 'acc-1' } })
    const refusal = new SdkError('Step-up required: confirm it with a second factor first', {
      code: '403',
      details: { status: 403, message: 'Step-up required: confirm it with a second factor first', data: { stepUp: { action: 'send-transaction' } } },
    })
    const signs: Record<string, unknown>[] = []
    Object.assign(t.service.owner, {
      signUserOperation: async (params: Record<string, unknown>) => {
        signs.push(params)
        if (!params.stepUpProof) throw refusal
        return { signature: '0x04' }
      },
    })
    const asked: string[] = []
    const stop = transactionStepUp.answerWith(async (request) => {
      asked.push(request)
      return 'sup_proof'
    })
    try {
      const calls = [
        { to: alice.address, value: '0xde0b6b3a7640000', data: '0xaa' },
        { to: other, value: '0x1' },
      ]
      const batch = t.confirmNext(t.call('wallet_sendCalls', [{ version: '2.0.0', from: aa, chainId: '0x7a69', atomicRequired: true, calls }]))
      expect(await batch).toMatchObject({ result: { id: expect.stringMatching(/^0x[0-9a-f]{64}$/) } })
    } finally {
      stop()
    }
    // The hash the wallet service recomputes from the calls the stored operation runs (sdk/wallet/transaction-hash.ts).
    expect(asked).toEqual([
      operationRequestHash({
        chainId: 31337,
        account: aa,
        calls: [
          { to: alice.address, value: 10n ** 18n, data: '0xaa' },
          { to: other, value: 1n },
        ],
      }),
    ])
    expect(signs).toEqual([{ userOpId: 'op-1' }, { userOpId: 'op-1', stepUpProof: 'sup_proof' }])
    expect(t.calls.map(([name]) => name)).toEqual(['smart.hash', 'smart.submit'])
  })

  test('EIP-5792: atomic with a paymaster; a batch is one confirmation listing every call and one operation; its status', async () => {
    const t = smartContext()
    await t.wallet.restore()
    await t.wallet.showSmartAccount({ address: aa, accounts: { '31337': 'acc-1' } })
    expect(await t.call('wallet_getCapabilities', [aa, ['0x7a69']])).toEqual({
      result: { '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true } } },
    })
    const calls = [
      { to: alice.address, value: '0x1', data: '0xaa' },
      { to: other, data: '0xbb' },
    ]
    const batch = t.call('wallet_sendCalls', [{ version: '2.0.0', from: aa, chainId: '0x7a69', atomicRequired: true, calls }])
    await tick()
    await tick()
    expect(t.wallet.ui.get().confirmation?.payload).toMatchObject({
      sponsored: true,
      calls: [
        { to: alice.address, value: '0.000000000000000001', data: '0xaa' },
        { to: other, value: '0', data: '0xbb' },
      ],
    })
    await t.confirmations.confirm()
    const { result } = (await batch) as { result: { id: string } }
    expect(t.calls.filter(([name]) => name === 'smart.hash')).toEqual([
      [
        'smart.hash',
        {
          accountId: 'acc-1',
          calls: [
            { to: alice.address, value: '1', data: '0xaa' },
            { to: other, value: '0', data: '0xbb' },
          ],
          isSponsored: true,
        },
      ],
    ])
    expect(await t.call('wallet_getCallsStatus', [result.id])).toMatchObject({ result: { atomic: true, status: 200, receipts: [{ status: '0x1' }] } })
    // wallet_showCallsStatus: the profile's status page, as it stands now.
    expect(await t.call('wallet_showCallsStatus', [result.id])).toEqual({ result: null })
    expect(t.wallet.ui.get()).toMatchObject({
      view: 'profile',
      page: 'calls-status',
      callsStatus: { id: result.id, status: 200, atomic: true, chainId: 31337 },
    })
    expect(await t.call('wallet_showCallsStatus', ['0x1234'])).toMatchObject({ code: 5730 })
    t.setReceipt({ status: 'submitted' })
    expect(await t.call('wallet_getCallsStatus', [result.id])).toMatchObject({ result: { status: 100, receipts: [] } })
    t.setReceipt({ status: 'included', txHash: `0x${'cd'.repeat(32)}`, success: false })
    expect(await t.call('wallet_getCallsStatus', [result.id])).toMatchObject({ result: { status: 500 } })
  })

  test('a site cannot make the smart account call itself (its owner-only functions: ownership, upgrades), alone or in a batch; a call naming another sender is refused', async () => {
    const t = smartContext()
    await t.wallet.restore()
    await t.wallet.showSmartAccount({ address: aa, accounts: { '31337': 'acc-1' } })
    const takeOver = '0xf2fde38b000000000000000000000000000000000000000000000000000000000000bad0'
    expect(await t.call('eth_sendTransaction', [{ from: aa, to: aa, data: takeOver }])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('does not call itself'),
    })
    expect(
      await t.call('wallet_sendCalls', [
        { version: '2.0.0', from: aa, chainId: '0x7a69', calls: [{ to: alice.address }, { to: aa.toLowerCase(), data: takeOver }] },
      ]),
    ).toMatchObject({ code: -32602, message: expect.stringContaining('calls[1]') })
    expect(
      await t.call('wallet_sendCalls', [{ version: '2.0.0', from: aa, chainId: '0x7a69', calls: [{ to: alice.address, from: alice.address }] }]),
    ).toMatchObject({
      code: -32602,
      message: expect.stringContaining('calls[0]'),
    })
    expect(t.calls).toEqual([])
    expect(t.wallet.ui.get().confirmation).toBeNull()
  })

  test('capabilities are per chain: atomic and sponsored only where the smart account has an account', async () => {
    const t = smartContext()
    await t.wallet.restore()
    await t.wallet.showSmartAccount({ address: aa, accounts: { '31337': 'acc-1' } })
    await t.wallet.switchChain(31338)
    expect(await t.call('wallet_getCapabilities', [aa])).toEqual({
      result: { '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true } }, '0x7a6a': { atomic: { status: 'unsupported' } } },
    })
  })

  test('on a chain where it has no account, a request is 4901; the embedded wallet alone has no smart account to hand over', async () => {
    const t = smartContext()
    await t.wallet.restore()
    await t.wallet.showSmartAccount({ address: aa, accounts: { '31337': 'acc-1' } })
    await t.wallet.switchChain(31338)
    expect(await t.call('personal_sign', ['0x6869', aa])).toMatchObject({ code: 4901 })
    const nobody = testContext()
    await nobody.wallet.restore()
    await expect(nobody.wallet.showSmartAccount({ address: aa, accounts: {} })).rejects.toThrow(/embedded wallet/)
  })

  test("another tab's choice is followed (the host hears it); a malformed one from a tab is ignored", async () => {
    const t = smartContext()
    await t.wallet.restore()
    const expiresAt = Date.now() + 60_000
    t.remote({ ...alice, expiresAt, smartAccount: { address: 'not an address' as `0x${string}`, accounts: {} } })
    expect(await t.call('eth_accounts')).toEqual({ result: [alice.address] })
    t.remote({ ...alice, expiresAt, smartAccount: { address: aa, accounts: { '31337': 'acc-1' } } })
    expect(t.events.at(-1)).toEqual(['accountsChanged', [aa]])
    expect(await t.call('eth_accounts')).toEqual({ result: [aa] })
  })
})
