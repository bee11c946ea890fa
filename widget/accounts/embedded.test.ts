import { parseEther, stringToHex, toHex } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import { SdkError } from '../../sdk/errors.ts'
import type { ChainConfig } from '../../sdk/index.ts'
import { transactionRequestHash } from '../../sdk/wallet/transaction-hash.ts'
import { embeddedAccount, needsTransactionStepUp, signMessage, transactionStepUp } from './embedded.ts'

const address = '0x1111111111111111111111111111111111111111'
const to = '0x000000000000000000000000000000000000bEEF'
const chain = { chainId: 31337, network: 'local-1' } as ChainConfig
const stepUpRefusal = () =>
  new SdkError('Step-up required: confirm it with a second factor first', {
    code: '403',
    details: { status: 403, message: 'Step-up required: confirm it with a second factor first', data: { stepUp: { action: 'send-transaction' } } },
  })
const transaction = { from: address, to, value: '0.05', data: '0x', maxFeePerGas: '2000000000' }

describe('a transaction the service refuses for want of a step-up', () => {
  test('is sent again once, with the proof asked for the hash of that very transaction', async () => {
    const sendTransaction = vi
      .fn()
      .mockRejectedValueOnce(stepUpRefusal())
      .mockResolvedValueOnce({ txReceipt: { hash: '0xabc' } })
    const asked: string[] = []
    const stop = transactionStepUp.answerWith(async (request) => {
      asked.push(request)
      return 'sup_proof'
    })
    try {
      const account = embeddedAccount({ wallet: { sendTransaction } } as never, address, chain)
      expect(await account.sendTransaction(transaction)).toBe('0xabc')
    } finally {
      stop()
    }
    // The hash the service recomputes from the body: value in wei, the fee given, no other.
    expect(asked).toEqual([transactionRequestHash({ chainId: 31337, from: address, to, value: parseEther('0.05'), data: '0x', maxFeePerGas: 2_000_000_000n })])
    expect(sendTransaction.mock.calls).toEqual([[{ network: 'local-1', transaction }], [{ network: 'local-1', transaction, stepUpProof: 'sup_proof' }]])
  })

  test('the user refusing the code answers the refusal, and nothing is sent again', async () => {
    const signTransaction = vi.fn().mockRejectedValue(stepUpRefusal())
    const stop = transactionStepUp.answerWith(() => Promise.reject(Object.assign(new Error('Transaction rejected by user'), { code: 4001 })))
    try {
      const account = embeddedAccount({ wallet: { signTransaction } } as never, address, chain)
      await expect(account.signTransaction(transaction)).rejects.toMatchObject({ code: 4001 })
    } finally {
      stop()
    }
    expect(signTransaction).toHaveBeenCalledTimes(1)
  })

  test('any other failure (another 403, a permission refusal) is not a step-up', () => {
    expect(needsTransactionStepUp(stepUpRefusal())).toBe(true)
    expect(needsTransactionStepUp(new SdkError('Step-up required', { code: '403', details: { data: { stepUp: { action: 'export-key' } } } }))).toBe(false)
    expect(needsTransactionStepUp(new SdkError('Permission needed', { code: '407', details: { data: {} } }))).toBe(false)
    expect(needsTransactionStepUp(null)).toBe(false)
  })
})

const signed = () => vi.fn(async (_params: { network: string; message: string }) => ({ signature: '0x03' }))

describe('personal_sign on the embedded wallet: the service signs the exact bytes, never a hash the frame made', () => {
  test('readable text goes as text; bytes that are not text, and text that looks like hex, go as the 0x-hex of the bytes', async () => {
    const wallet = { signMessage: signed() }
    const binary = toHex(new Uint8Array([0xff, 0xfe, 0x00, 0x01]))
    const hexLooking = stringToHex('0xdeadbeef')
    for (const bytes of [stringToHex('hello there'), binary, hexLooking]) expect(await signMessage({ wallet } as never, 'local-1', bytes)).toBe('0x03')
    expect(wallet.signMessage.mock.calls).toEqual([
      [{ network: 'local-1', message: 'hello there' }],
      [{ network: 'local-1', message: binary }],
      [{ network: 'local-1', message: hexLooking }],
    ])
  })

  test('bytes past what the service takes (32,000) are refused with a clear error before any call', async () => {
    const wallet = { signMessage: signed() }
    const fits = toHex(new Uint8Array(32_000).fill(0xff))
    expect(await signMessage({ wallet } as never, 'local-1', fits)).toBe('0x03')
    await expect(signMessage({ wallet } as never, 'local-1', toHex(new Uint8Array(32_001).fill(0xff)))).rejects.toThrow(/too long to sign/)
    expect(wallet.signMessage).toHaveBeenCalledTimes(1)
  })
})
