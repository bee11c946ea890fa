import { beforeEach, expect, test } from 'vitest'
import { createWalletClient } from '../index.ts'
import { createTokenHolder } from '../config.ts'
import { onlyRequest, openRecorder } from '../recorder.fixture.ts'
import type { WalletOperation, WalletParams } from './client.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

const network = 'local-1'
const tx = { from: '0xF', to: '0xT', value: '0.1', data: '0x', nonce: 3, gasPrice: '1' }
const receipt = { txReceipt: { hash: '0xhash', from: '0xF', to: '0xT', nonce: 3, chainId: 31337 } }

// One row per wallet operation: the path it posts to, a request and the answer it gets.
const rows: { [op in WalletOperation]: [string, WalletParams[op], object] } = {
  cancelTransaction: ['cancel-transaction', { network, nonce: 4 }, receipt],
  balanceCoin: ['balance-coin', { network }, { balance: '10.0', symbol: 'ETH', address: '0xA' }],
  balanceToken: ['balance-token', { network, tokenAddress: '0xTok' }, { balance: '1', symbol: 'USDC', address: '0xA' }],
  batchBalanceToken: [
    'batch-balance-token',
    { network, tokenAddresses: ['0x1', '0x2'] },
    { address: '0xA', tokens: [{ balance: '1', symbol: 'A', decimals: 18 }] },
  ],
  estimateGas: ['estimate-gas', { network, type: 'custom', transaction: tx }, { gasLimit: '21000', gasPrice: '1' }],
  address: ['address', { network }, { address: '0xA' }],
  sendCoin: ['send-coin', { network, to: '0xT', amount: '0.125', gasLimit: '21000' }, receipt],
  sendToken: ['send-token', { network, to: '0xT', amount: '5', tokenAddress: '0xTok' }, receipt],
  sendTransaction: ['send-transaction', { network, transaction: tx }, receipt],
  signMessage: ['sign-message', { network, message: 'hello' }, { signature: '0xsig' }],
  signTransaction: ['sign-transaction', { network, transaction: tx }, { signedTransaction: '0x02f8' }],
  signTypedData: ['sign-typed-data', { network, data: '{"types":{}}' }, { signature: '0xsig' }],
  transferErc721: ['transfer-erc721', { network, to: '0xT', tokenId: '7', tokenAddress: '0xNft' }, receipt],
  transferErc1155: ['transfer-erc1155', { network, to: '0xT', amount: ['1', '2'], tokenId: ['3', '4'], tokenAddress: '0xMulti' }, receipt],
}

test.each(Object.entries(rows))('%s: POST /api/v2/wallet/<path> with the bearer wallet token', async (op, row) => {
  const [path, params, answer] = row
  await rec.rules({ method: 'POST', path: `/api/v2/wallet/${path}`, body: answer })
  const tokens = createTokenHolder({ walletToken: 'wt-held' })
  const wallet = createWalletClient({ appId: 'demo', baseUrls: rec.baseUrls, tokens })
  const call = wallet[op as WalletOperation] as (p: object) => Promise<unknown>
  expect(await call(params)).toEqual(answer)
  const req = await onlyRequest(rec)
  expect(req.method).toBe('POST')
  expect(req.path).toBe(`/api/v2/wallet/${path}`)
  expect(req.query).toEqual({})
  expect(req.headers.authorization).toBe('Bearer wt-held')
  expect(req.headers['content-type']).toBe('application/json')
  expect(req.headers['x-app-id']).toBe('demo')
  expect(req.headers['x-environment']).toBe('development')
  expect(JSON.parse(req.body)).toEqual(params)
})

test('a wallet token passed with the call wins over the held one and is not sent in the body', async () => {
  await rec.rules({ path: '/api/v2/wallet/send-transaction', body: receipt })
  const wallet = createWalletClient({ baseUrls: rec.baseUrls, tokens: createTokenHolder({ walletToken: 'held' }) })
  const result = await wallet.sendTransaction({ network, transaction: tx, walletToken: 'explicit' })
  expect(result.txReceipt.hash).toBe('0xhash')
  const req = await onlyRequest(rec)
  expect(req.headers.authorization).toBe('Bearer explicit')
  expect(JSON.parse(req.body)).toEqual({ network, transaction: tx })
})

test('without any wallet token no Authorization header is sent', async () => {
  await rec.rules({ path: '/api/v2/wallet/address', body: { address: '0xA' } })
  await createWalletClient({ baseUrls: rec.baseUrls }).address({ network })
  expect((await onlyRequest(rec)).headers.authorization).toBeUndefined()
})
