import { Hono } from 'hono'
import { erc20Abi, formatUnits, type Address } from 'viem'
import { coinTransfer, erc1155Transfer, erc721Transfer, tokenTransfer, type Call } from './transfer-calls.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { HttpError, ok, readJson, readString, type JsonObject, onlyFields } from '../../http/exchange.ts'
import type { Network } from '../chain/networks.ts'
import { walletOf } from './caller-wallet.ts'
import { chainError } from './transactions.ts'
import { feeFieldNames, readAddress, readTransaction } from './tx-fields.ts'

const estimateTypes = ['send-coin', 'send-token', 'transfer-erc721', 'transfer-erc1155', 'custom'] as const

/** The read calls of /api/v2/wallet: a wallet token is enough, no signing permission needed (estimates and reads are open to a wallet without it). */
export function readRoutes(deps: Deps) {
  return new Hono<SandboxEnv>()
    .post('/balance-coin', async (c) => {
      const body = await readJson(c)
      const { address } = await walletOf(c, deps)
      onlyFields(body, ['network'])
      const network = deps.networks.get(readString(body.network, 'network', 64))
      const balance = await network.client.getBalance({ address }).catch(rethrow)
      const currency = network.chain.nativeCurrency
      return ok(c, { balance: formatUnits(balance, currency.decimals), symbol: currency.symbol, address })
    })
    .post('/balance-token', async (c) => {
      const body = await readJson(c)
      const { address } = await walletOf(c, deps)
      onlyFields(body, ['network', 'tokenAddress'])
      const network = deps.networks.get(readString(body.network, 'network', 64))
      const [token] = await tokenBalances(network, [readAddress(body.tokenAddress, 'tokenAddress')], address)
      return ok(c, { balance: token!.balance, symbol: token!.symbol, address })
    })
    .post('/batch-balance-token', async (c) => {
      const body = await readJson(c)
      const { address } = await walletOf(c, deps)
      onlyFields(body, ['network', 'tokenAddresses'])
      const network = deps.networks.get(readString(body.network, 'network', 64))
      const list = body.tokenAddresses
      if (!Array.isArray(list) || list.length === 0 || list.length > 50) throw new HttpError(400, 'tokenAddresses must list 1 to 50 addresses')
      const tokens = list.map((item, index) => readAddress(item, `tokenAddresses[${index}]`))
      return ok(c, { address, tokens: await tokenBalances(network, tokens, address) })
    })
    .post('/estimate-gas', async (c) => {
      const body = await readJson(c)
      const { address } = await walletOf(c, deps)
      onlyFields(body, ['network', 'type', 'to', 'amount', 'tokenId', 'tokenAddress', 'transaction'])
      const network = deps.networks.get(readString(body.network, 'network', 64))
      const call = await estimateCall(network, address, body)
      const { client } = network
      const [gasLimit, gasPrice, fees, balance] = await Promise.all([
        client.estimateGas({ account: address, ...call }),
        client.getGasPrice(),
        client.estimateFeesPerGas(),
        client.getBalance({ address }),
      ]).catch(rethrow)
      // anvil estimates a transfer of more than the balance without complaint; the send would fail.
      if ((call.value ?? 0n) > balance) throw new HttpError(400, 'Insufficient funds: the amount exceeds the balance')
      return ok(c, {
        gasLimit: gasLimit.toString(),
        gasPrice: gasPrice.toString(),
        maxFeePerGas: fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      })
    })
}

const rethrow = (error: unknown): never => {
  throw chainError(error)
}

/** The call estimate-gas prices: one of the transfer shapes, or the caller's own transaction ('custom'). */
async function estimateCall(network: Network, from: Address, body: JsonObject): Promise<Call> {
  const type = readString(body.type, 'type', 32)
  const fields: Record<(typeof estimateTypes)[number], readonly string[]> = {
    'send-coin': ['to', 'amount'],
    'send-token': ['to', 'amount', 'tokenAddress'],
    'transfer-erc721': ['to', 'tokenId', 'tokenAddress'],
    'transfer-erc1155': ['to', 'amount', 'tokenId', 'tokenAddress'],
    custom: ['transaction'],
  }
  if (!(estimateTypes as readonly string[]).includes(type)) throw new HttpError(400, `type must be one of: ${estimateTypes.join(', ')}`)
  onlyFields(body, ['network', 'type', ...fields[type as (typeof estimateTypes)[number]]])
  switch (type) {
    case 'send-coin':
      return coinTransfer(body)
    case 'send-token':
      return tokenTransfer(network, body)
    case 'transfer-erc721':
      return erc721Transfer(from, body)
    case 'transfer-erc1155':
      return erc1155Transfer(from, body)
    default: {
      const { to, value, data } = readTransaction(body.transaction, from, { dataRequired: false, allowed: ['from', 'to', 'value', 'data', ...feeFieldNames] })
      return { to, ...(value !== undefined ? { value } : {}), ...(data !== undefined ? { data } : {}) }
    }
  }
}

/**
 * ERC-20 balances in whole units with each token's symbol and decimals, read in one Multicall3
 * call. A token address that does not answer like an ERC-20 is the caller's mistake (400).
 */
async function tokenBalances(network: Network, tokens: readonly Address[], owner: Address) {
  const contracts = tokens.flatMap((address) => [
    { address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] } as const,
    { address, abi: erc20Abi, functionName: 'symbol' } as const,
    { address, abi: erc20Abi, functionName: 'decimals' } as const,
  ])
  const results = await network.client.multicall({ contracts, allowFailure: true }).catch(rethrow)
  return tokens.map((tokenAddress, index) => {
    const [balance, symbol, decimals] = results.slice(index * 3, index * 3 + 3)
    if (balance?.status !== 'success' || symbol?.status !== 'success' || decimals?.status !== 'success')
      throw new HttpError(400, `tokenAddress ${tokenAddress} is not an ERC-20 token on ${network.chain.network}`)
    const amount = balance.result as bigint
    const places = decimals.result as number
    return { tokenAddress, balance: formatUnits(amount, places), symbol: symbol.result as string, decimals: places }
  })
}
