import { readFileSync } from 'node:fs'
import { createPublicClient, erc1155Abi, erc20Abi, erc721Abi, http, parseEther, type Address, type Hash } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { artifactSourceHash, contractNames, loadArtifact } from '../../contracts/artifacts.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import { startTestSandbox, type CreatedWallet, type TestSandbox } from '../../sandbox.fixture.ts'

let sandbox: TestSandbox
let wallet: CreatedWallet

beforeAll(async () => {
  sandbox = await startTestSandbox()
  wallet = await sandbox.signUp('holder@example.com')
})
afterAll(() => sandbox?.dispose())

const call = (path: string, body: unknown, token = wallet.walletToken) => sandbox.post(`/api/v2/wallet/${path}`, body, token)
const chain = (chainId = 31337) => createPublicClient({ transport: http(`${sandbox.url}/rpc/${chainId}`) })
const token = demoContracts.demoToken.address
const nft = demoContracts.demoNft.address
const multi = demoContracts.demoMultiToken.address
const dead: Address = '0x000000000000000000000000000000000000dEaD'

describe('contracts', () => {
  test('the committed artifacts were compiled from the committed sources', () => {
    for (const name of contractNames) {
      const artifact = loadArtifact(name)
      const source = readFileSync(new URL(`../../contracts/${artifact.sourceName}`, import.meta.url), 'utf8')
      expect(artifact.sourceHash, `${name}: run npx tsx scripts/compile-contracts.ts`).toBe(artifactSourceHash(source))
      expect(artifact.deployedBytecode.length).toBeGreaterThan(100)
    }
  })

  test('both chains carry the same contracts, and Multicall3 batches reads through the public RPC', async () => {
    const config = await sandbox.call('/api/v1/apps/config')
    for (const entry of config.body.data.chains) {
      // The demo contracts, then the smart-account ones (app-config-accounts.test.ts reads those).
      expect(entry.contracts).toMatchObject(demoContracts)
      expect(Object.keys(entry.contracts)).toEqual([...Object.keys(demoContracts), 'entryPoint', 'accountFactory', 'accountImplementation', 'paymaster'])
      const client = createPublicClient({
        chain: {
          id: entry.chainId,
          name: entry.name,
          nativeCurrency: entry.nativeCurrency,
          rpcUrls: { default: { http: entry.rpcUrls } },
          contracts: entry.contracts,
        },
        transport: http(),
      })
      const [symbol, nftName, balance] = await client.multicall({
        contracts: [
          { address: token, abi: erc20Abi, functionName: 'symbol' },
          { address: nft, abi: erc721Abi, functionName: 'name' },
          { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet.address] },
        ],
        allowFailure: false,
      })
      expect([symbol, nftName, balance]).toEqual(['DEMO', 'Demo Collectible', parseEther('1000')])
    }
  })

  test('the faucet gave the new wallet demo tokens on each chain', async () => {
    for (const chainId of [31337, 31338]) {
      const client = chain(chainId)
      expect(await client.readContract({ address: nft, abi: erc721Abi, functionName: 'ownerOf', args: [1n] })).toBe(wallet.address)
      const ids = await client.readContract({
        address: multi,
        abi: erc1155Abi,
        functionName: 'balanceOfBatch',
        args: [
          [wallet.address, wallet.address],
          [1n, 2n],
        ],
      })
      expect(ids).toEqual([10n, 5n])
    }
  })
})

describe('token balances', () => {
  test('balance-token reads one ERC-20 in whole units', async () => {
    const { body } = await call('balance-token', { network: 'local-2', tokenAddress: token })
    expect(body).toEqual({ status: 200, message: 'OK', data: { balance: '1000', symbol: 'DEMO', address: wallet.address } })
  })

  test('batch-balance-token reads several in one call', async () => {
    const { body } = await call('batch-balance-token', { network: 'local-1', tokenAddresses: [token, token.toLowerCase()] })
    expect(body.data).toEqual({
      address: wallet.address,
      tokens: [
        { tokenAddress: token, balance: '1000', symbol: 'DEMO', decimals: 18 },
        { tokenAddress: token, balance: '1000', symbol: 'DEMO', decimals: 18 },
      ],
    })
  })

  test.each([
    ['balance-token', { network: 'local-1', tokenAddress: dead }, `tokenAddress ${dead} is not an ERC-20 token on local-1`],
    ['batch-balance-token', { network: 'local-1', tokenAddresses: [token, nft] }, `tokenAddress ${nft} is not an ERC-20 token on local-1`],
    ['batch-balance-token', { network: 'local-1', tokenAddresses: [] }, 'tokenAddresses must list 1 to 50 addresses'],
    ['batch-balance-token', { network: 'local-1', tokenAddresses: token }, 'tokenAddresses must list 1 to 50 addresses'],
    ['balance-token', { network: 'local-1', tokenAddress: '0x1234' }, 'tokenAddress is not a valid address'],
  ])('%s refuses %j', async (path, body, message) => {
    expect((await call(path, body)).body).toEqual({ status: 400, message, data: null })
  })
})

describe('send-token', () => {
  test('transfers ERC-20 in whole units and answers the mined receipt', async () => {
    const { status, body } = await call('send-token', { network: 'local-1', to: dead, amount: '12.5', tokenAddress: token })
    expect(status).toBe(200)
    expect(body.data.txReceipt).toMatchObject({ status: 'success', to: token.toLowerCase(), chainId: 31337 })
    expect(await chain().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [dead] })).toBe(parseEther('12.5'))
  })

  test.each([
    ['more than the balance', { amount: '5000' }, 'Execution reverted with reason: DemoToken: transfer amount exceeds balance.'],
    ['more decimals than the token has', { amount: '0.0000000000000000001' }, 'amount has more than 18 decimals'],
    ['a negative amount', { amount: '-1' }, 'amount must be a decimal string in whole units, e.g. "0.125"'],
    ['a missing token', { tokenAddress: undefined }, 'tokenAddress is required'],
  ])('refuses %s', async (_, change, message) => {
    const response = await call('send-token', { network: 'local-1', to: dead, amount: '1', tokenAddress: token, ...change })
    expect(response.body).toEqual({ status: 400, message, data: null })
  })
})

describe('NFT transfers', () => {
  test('transfer-erc721 moves the token', async () => {
    const { body } = await call('transfer-erc721', { network: 'local-2', to: dead, tokenId: '1', tokenAddress: nft })
    expect(body.data.txReceipt.status).toBe('success')
    expect(await chain(31338).readContract({ address: nft, abi: erc721Abi, functionName: 'ownerOf', args: [1n] })).toBe(dead)
    const again = await call('transfer-erc721', { network: 'local-2', to: dead, tokenId: '1', tokenAddress: nft })
    expect(again.body).toEqual({ status: 400, message: 'Execution reverted with reason: DemoNft: from is not the owner.', data: null })
  })

  test('transfer-erc1155 moves one id or a batch', async () => {
    const one = await call('transfer-erc1155', { network: 'local-1', to: dead, tokenId: '1', amount: '3', tokenAddress: multi })
    expect(one.body.data.txReceipt.status).toBe('success')
    const batch = await call('transfer-erc1155', { network: 'local-1', to: dead, tokenId: ['1', '2'], amount: ['2', '5'], tokenAddress: multi })
    expect(batch.body.data.txReceipt.status).toBe('success')
    const balances = await chain().readContract({
      address: multi,
      abi: erc1155Abi,
      functionName: 'balanceOfBatch',
      args: [
        [wallet.address, wallet.address, dead, dead],
        [1n, 2n, 1n, 2n],
      ],
    })
    expect(balances).toEqual([5n, 0n, 5n, 5n])
  })

  test.each([
    [{ tokenId: ['1', '2'], amount: '1' }, 'tokenId and amount must both be single values or lists of the same length'],
    [{ tokenId: ['1'], amount: ['1', '2'] }, 'tokenId and amount must both be single values or lists of the same length'],
    [{ tokenId: [], amount: [] }, 'tokenId must list 1 to 100 values'],
    [{ tokenId: '1', amount: '999' }, 'Execution reverted with reason: DemoMultiToken: insufficient balance for transfer.'],
  ])('transfer-erc1155 refuses %j', async (change, message) => {
    const response = await call('transfer-erc1155', { network: 'local-1', to: dead, tokenAddress: multi, ...change })
    expect(response.body).toEqual({ status: 400, message, data: null })
  })

  test('estimate-gas prices each transfer type', async () => {
    for (const body of [
      { type: 'send-token', to: dead, amount: '1', tokenAddress: token },
      { type: 'transfer-erc721', to: dead, tokenId: '1', tokenAddress: nft },
      { type: 'transfer-erc1155', to: dead, tokenId: '2', amount: '0', tokenAddress: multi },
    ]) {
      const { status, body: answer } = await call('estimate-gas', { network: 'local-1', ...body })
      expect(status).toBe(200)
      expect(BigInt(answer.data.gasLimit)).toBeGreaterThan(21_000n)
    }
  })
})

describe('cancel-transaction', () => {
  const anvil = <T = unknown>(method: string, params: unknown[] = []) =>
    fetch(sandbox.chains[1]!.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    }).then(async (response) => ((await response.json()) as { result: T }).result)

  test('replaces a pending transaction at its nonce with a 0-value self-transfer', async () => {
    const client = chain(31338)
    const nonce = await client.getTransactionCount({ address: wallet.address })
    await anvil('evm_setAutomine', [false])
    try {
      const signed = await call('sign-transaction', { network: 'local-2', transaction: { from: wallet.address, to: dead, value: '1' } })
      const original = await anvil<Hash>('eth_sendRawTransaction', [signed.body.data.signedTransaction])
      const cancelling = call('cancel-transaction', { network: 'local-2', nonce })
      // Mine once the replacement sits in the pool in place of the original.
      for (let tries = 0; tries < 100; tries++) {
        const pool = await anvil<{ pending: Record<string, Record<string, { hash: Hash }>> }>('txpool_content')
        const pending = Object.values(pool.pending)[0]?.[String(nonce)]
        if (pending && pending.hash !== original) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      await anvil('evm_mine')
      const { status, body } = await cancelling
      expect(status).toBe(200)
      expect(body.data.txReceipt).toMatchObject({ status: 'success', nonce, from: wallet.address.toLowerCase(), to: wallet.address.toLowerCase() })
      await expect(client.getTransactionReceipt({ hash: original })).rejects.toThrow()
      expect(await client.getTransactionCount({ address: wallet.address })).toBe(nonce + 1)
    } finally {
      await anvil('evm_setAutomine', [true])
    }
  })

  test.each([
    [0, 'The transaction with nonce 0 is already mined'],
    [500, 'No pending transaction with nonce 500'],
    ['1', 'nonce must be a non-negative integer'],
  ])('refuses nonce %j', async (nonce, message) => {
    expect((await call('cancel-transaction', { network: 'local-2', nonce })).body).toEqual({ status: 400, message, data: null })
  })
})
