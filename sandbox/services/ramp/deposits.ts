import { createHmac } from 'node:crypto'
import { bytesToHex, erc20Abi, type Address, type Hash } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Deps } from '../../context.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import type { App } from '../app-config/apps.ts'
import { markDeposited, type RampOrderRow, waitingDeposits } from './order-queries.ts'

// Off-ramp deposits: a fresh address per order (its key derived from the master key and the order
// id), watched on the local chain until the full amount is there.

/** An off-ramp order's deposit account: its key is derived from the master key and the order id, so nothing secret is stored. */
export function depositAccount(deps: Deps, orderId: string) {
  const key = createHmac('sha256', deps.keys.masterKey).update(`offramp-deposit:${orderId}`).digest()
  return privateKeyToAccount(bytesToHex(key))
}

/**
 * Moves off-ramp orders whose full deposit is on chain to paid_out. check(app) runs on that app's
 * reads; the timer, started by a new order, checks every app's orders every 2 s while any waits,
 * and stops when none do (or once the sandbox's store is closed).
 */
export function depositWatcher(deps: Deps) {
  let timer: ReturnType<typeof setInterval> | undefined
  let running: Promise<number> | undefined
  const checkOrders = async (orders: RampOrderRow[]) => {
    for (const order of orders) {
      const network = deps.networks.list.find((entry) => entry.chain.chainId === order.chain_id)
      const address = order.deposit_address
      if (!network || !address) continue
      const held =
        order.asset === 'ETH'
          ? await network.client.getBalance({ address })
          : await network.client.readContract({ address: demoContracts.demoToken.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
      if (held < BigInt(order.crypto_amount)) continue
      await markDeposited(deps.store, order.id, await depositTx(network.client, order, address))
    }
    return orders.length
  }
  const check = async (app?: App) => {
    const orders = await waitingDeposits(deps.store, app)
    return checkOrders(orders)
  }
  const stop = () => {
    if (timer) clearInterval(timer)
    timer = undefined
  }
  return {
    check: (app: App) => check(app).then(() => {}),
    start() {
      if (timer) return
      timer = setInterval(() => {
        if (running) return
        running = check()
          .then((waiting) => {
            if (waiting === 0) stop()
            return waiting
          })
          .catch(() => {
            stop()
            return 0
          })
          .finally(() => {
            running = undefined
          })
      }, 2000)
      timer.unref?.()
    },
  }
}

type ChainClient = Deps['networks']['list'][number]['client']

/** The transaction that brought the deposit: a DEMO Transfer log, or an ETH transfer in the blocks since the order (up to 500). */
async function depositTx(client: ChainClient, order: RampOrderRow, address: Address): Promise<Hash | null> {
  const fromBlock = BigInt(order.start_block ?? '0')
  const latest = await client.getBlockNumber()
  if (order.asset === 'DEMO') {
    const logs = await client.getContractEvents({
      address: demoContracts.demoToken.address,
      abi: erc20Abi,
      eventName: 'Transfer',
      args: { to: address },
      fromBlock,
      toBlock: latest,
    })
    return logs.at(-1)?.transactionHash ?? null
  }
  for (let number = latest; number >= fromBlock && latest - number < 500n; number--) {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true })
    const found = block.transactions.find((tx) => tx.to?.toLowerCase() === address.toLowerCase() && tx.value > 0n)
    if (found) return found.hash
  }
  return null
}
