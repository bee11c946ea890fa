import { createPublicClient, http, parseEther, parseGwei, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestSandbox, type CreatedWallet, type TestSandbox } from '../../sandbox.fixture.ts'

let sandbox: TestSandbox
let wallet: CreatedWallet

beforeAll(async () => {
  sandbox = await startTestSandbox()
  wallet = await sandbox.signUp('sender@example.com')
})
afterAll(() => sandbox?.dispose())

const call = (path: string, body: unknown, token = wallet.walletToken) => sandbox.post(`/api/v2/wallet/${path}`, body, token)
const chain = (chainId: number) => createPublicClient({ transport: http(`${sandbox.url}/rpc/${chainId}`) })
const dead: Address = '0x000000000000000000000000000000000000dEaD'

describe('balance-coin', () => {
  test('the faucet funded the new wallet with 10 ETH on both chains', async () => {
    for (const network of ['local-1', 'local-2']) {
      const { status, body } = await call('balance-coin', { network })
      expect(status).toBe(200)
      expect(body).toEqual({ status: 200, message: 'OK', data: { balance: '10', symbol: 'ETH', address: wallet.address } })
    }
  })
})

describe('estimate-gas', () => {
  test('prices a coin transfer and a custom transaction', async () => {
    const coin = await call('estimate-gas', { network: 'local-1', type: 'send-coin', to: dead, amount: '0.5' })
    expect(coin.body.data).toEqual({
      gasLimit: '21000',
      gasPrice: expect.stringMatching(/^\d+$/),
      maxFeePerGas: expect.stringMatching(/^\d+$/),
      maxPriorityFeePerGas: expect.stringMatching(/^\d+$/),
    })
    const custom = await call('estimate-gas', {
      network: 'local-1',
      type: 'custom',
      transaction: { from: wallet.address, to: dead, value: '0.1', data: '0x1234' },
    })
    expect(BigInt(custom.body.data.gasLimit)).toBeGreaterThan(21000n)
  })

  test.each([
    ['an unknown type', { network: 'local-1', type: 'swap' }, 'type must be one of: send-coin, send-token, transfer-erc721, transfer-erc1155, custom'],
    ['fields of another type', { network: 'local-1', type: 'send-coin', to: dead, amount: '1', tokenId: '1' }, 'Unknown field in body: tokenId'],
    ['more than the balance', { network: 'local-1', type: 'send-coin', to: dead, amount: '1000' }, 'Insufficient funds: the amount exceeds the balance'],
    [
      'a token address that is no token',
      { network: 'local-1', type: 'send-token', to: dead, amount: '1', tokenAddress: dead },
      `tokenAddress ${dead} is not an ERC-20 token on local-1`,
    ],
  ])('refuses %s', async (_, body, message) => {
    const response = await call('estimate-gas', body)
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ status: 400, message, data: null })
  })
})

describe('send-transaction', () => {
  test('signs, broadcasts and answers once mined', async () => {
    const before = await chain(31337).getBalance({ address: dead })
    const { status, body } = await call('send-transaction', {
      network: 'local-1',
      transaction: { from: wallet.address, to: dead, value: '0.125', data: '0x' },
    })
    expect(status).toBe(200)
    const receipt = body.data.txReceipt
    expect(receipt).toEqual({
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      from: wallet.address.toLowerCase(),
      to: dead.toLowerCase(),
      nonce: 0,
      chainId: 31337,
      status: 'success',
      blockNumber: expect.any(Number),
      blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      transactionIndex: 0,
      gasUsed: '21000',
      effectiveGasPrice: expect.stringMatching(/^\d+$/),
      contractAddress: null,
    })
    const onChain = await chain(31337).getTransactionReceipt({ hash: receipt.hash })
    expect(onChain.status).toBe('success')
    expect((await chain(31337).getBalance({ address: dead })) - before).toBe(parseEther('0.125'))
  })

  test('concurrent sends from one wallet get consecutive nonces', async () => {
    const sends = await Promise.all(
      [1, 2, 3].map(() => call('send-transaction', { network: 'local-2', transaction: { from: wallet.address, to: dead, value: '0.001', data: '0x' } })),
    )
    expect(sends.map((send) => send.status)).toEqual([200, 200, 200])
    expect(sends.map((send) => send.body.data.txReceipt.nonce).sort()).toEqual([0, 1, 2])
  })

  test('keeps given fees', async () => {
    const { body } = await call('send-transaction', {
      network: 'local-1',
      transaction: { from: wallet.address, to: dead, data: '0x', maxFeePerGas: parseGwei('5').toString(), maxPriorityFeePerGas: parseGwei('2').toString() },
    })
    const tx = await chain(31337).getTransaction({ hash: body.data.txReceipt.hash })
    expect({ maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas }).toEqual({
      maxFeePerGas: parseGwei('5'),
      maxPriorityFeePerGas: parseGwei('2'),
    })
  })

  test.each([
    ['no data', { from: 'WALLET', to: dead }, 'transaction.data is required'],
    ['a nonce already used', { from: 'WALLET', to: dead, data: '0x', nonce: 0 }, expect.stringMatching(/nonce/i)],
    ['more than the balance', { from: 'WALLET', to: dead, data: '0x', value: '500' }, expect.stringMatching(/exceeds the balance|insufficient/i)],
  ])('refuses %s', async (_, transaction, message) => {
    const response = await call('send-transaction', { network: 'local-1', transaction: { ...transaction, from: wallet.address } })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ status: 400, message, data: null })
  })
})
