import { erc20Abi, type Hash } from 'viem'
import type { Deps } from '../../context.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import { faucetAccountOf } from '../chain/faucet.ts'
import { isRecordedPayout, onrampStartBlock } from './order-queries.ts'
import type { Order } from './orders.ts'

// An on-ramp payout that failed may still have landed: the sandbox may have stopped, or lost the
// chain, between sending it and recording its hash. Before an order whose payout failed is paid
// again, the chain is searched for that payout, so a retry never pays twice.

/** How far back (in blocks) a retry looks for an earlier payout of its order. */
const searchBlocks = 10_000n

/**
 * A transfer from the faucet to the order's receiver of exactly the order's amount, since the order
 * was made, that no other order has recorded as its payout: the earlier payout of this order.
 */
export async function landedPayout(deps: Deps, order: Order): Promise<Hash | undefined> {
  const network = deps.networks.list.find((entry) => entry.chain.chainId === order.chainId)
  if (!network || !order.rampOrderId) return undefined
  const { client } = network
  const faucet = faucetAccountOf(deps.keys.faucetKey).address
  // Not the client's cached block number: the transfer looked for may be in the newest block.
  const latest = await client.getBlockNumber({ cacheTime: 0 })
  const floor = latest > searchBlocks ? latest - searchBlocks : 0n
  const started = await onrampStartBlock(deps.store, order.rampOrderId)
  const fromBlock = started !== undefined && started > floor ? started : floor
  const candidates: Hash[] = []
  if (order.asset === 'DEMO') {
    const logs = await client.getContractEvents({
      address: demoContracts.demoToken.address,
      abi: erc20Abi,
      eventName: 'Transfer',
      args: { from: faucet, to: order.receiver },
      fromBlock,
      toBlock: latest,
    })
    for (const log of logs) if (log.args.value === order.amount) candidates.push(log.transactionHash)
  } else {
    for (let number = fromBlock; number <= latest; number++) {
      const block = await client.getBlock({ blockNumber: number, includeTransactions: true })
      for (const tx of block.transactions)
        if (tx.from.toLowerCase() === faucet.toLowerCase() && tx.to?.toLowerCase() === order.receiver.toLowerCase() && tx.value === order.amount)
          candidates.push(tx.hash)
    }
  }
  for (const hash of candidates) {
    if (await isRecordedPayout(deps.store, hash)) continue
    if ((await client.getTransactionReceipt({ hash })).status === 'success') return hash
  }
  return undefined
}
