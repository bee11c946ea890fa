import { hkdfSync } from 'node:crypto'
import { bytesToHex, erc20Abi, type Address, type Hash } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Deps } from '../../context.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import type { App } from '../app-config/apps.ts'
import { markDeposited, type RampOrderRow, waitingDeposits } from './order-queries.ts'

// Off-ramp deposits: a fresh address per order (its key an HKDF subkey of the master key), watched
// on the local chain until the full amount is there.

/** The HKDF `info` of an order's deposit key: the purpose, a version, and the order. */
export const depositKeyInfo = (orderId: string) => `wallet-kit/ramp/offramp-deposit/v1:${orderId}`

/** An off-ramp order's deposit account: an HKDF-SHA256 subkey of the master key for this purpose and order, so nothing secret is stored. */
export function depositAccount(deps: Deps, orderId: string) {
  const key = hkdfSync('sha256', deps.keys.masterKey, new Uint8Array(0), depositKeyInfo(orderId), 32)
  return privateKeyToAccount(bytesToHex(new Uint8Array(key)))
}

/**
 * How long after its deadline the timer still watches an order without a deposit: a deposit sent
 * just before the deadline, or completed late, is credited (sandbox rates are fixed, so the quote
 * still holds). Reading an order (detail) looks at its address whatever its age: a deposit is never
 * left unseen.
 */
const lateDepositGraceMs = 60 * 60 * 1000

/** Blocks searched (from the order's start) for the transfer that completed an ETH deposit. */
const maxScannedBlocks = 5_000n

type DepositWatcher = {
  /** Checks an app's watched orders now (on its reads); starts the timer when some wait. */
  check(app: App): Promise<void>
  /** Checks one order now, whatever its age (its detail read). */
  checkOrder(order: RampOrderRow): Promise<void>
  /** Makes sure the timer runs (a new order waits). */
  start(): void
}

/**
 * Credits off-ramp orders whose full deposit is on chain (paid_out). The timer checks every app's
 * watched orders every `intervalMs` while any are watched, and stops when none are. A failed check
 * of one order (the chain down, say) is logged and tried again on the next round; it stops nothing.
 */
export function depositWatcher(deps: Deps, options: { intervalMs?: number } = {}): DepositWatcher {
  const { intervalMs = 2000 } = options
  let timer: ReturnType<typeof setInterval> | undefined
  let running = false
  // Counts start() calls: a round that found nothing stops the timer only if no order asked for it meanwhile.
  let asked = 0
  // Orders whose last check failed: logged once until a check succeeds again.
  const failing = new Set<string>()

  const creditIfFunded = async (order: RampOrderRow) => {
    const network = deps.networks.list.find((entry) => entry.chain.chainId === order.chain_id)
    const address = order.deposit_address
    if (!network || !address) return
    const held =
      order.asset === 'ETH'
        ? await network.client.getBalance({ address })
        : await network.client.readContract({ address: demoContracts.demoToken.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
    if (held < BigInt(order.crypto_amount)) return
    await markDeposited(deps.store, order.id, await fundingTx(network.client, order, address))
  }
  const checkOrders = async (orders: RampOrderRow[]) => {
    for (const order of orders) {
      try {
        await creditIfFunded(order)
        failing.delete(order.id)
      } catch (error) {
        if (!failing.has(order.id))
          console.warn(`sandbox: checking the deposit of off-ramp order ${order.id} failed (${(error as Error).message}); trying again`)
        failing.add(order.id)
      }
    }
  }
  const stop = () => {
    clearInterval(timer)
    timer = undefined
  }
  const round = async () => {
    if (running) return
    running = true
    const before = asked
    try {
      const orders = await waitingDeposits(deps.store, lateDepositGraceMs)
      await checkOrders(orders)
      if (orders.length === 0 && asked === before) stop()
    } catch {
      // The database itself failed (closed with the sandbox): the next order or read starts the timer again.
      stop()
    } finally {
      running = false
    }
  }
  const start = () => {
    asked++
    if (timer) return
    timer = setInterval(() => void round(), intervalMs)
    timer.unref?.()
  }
  return {
    async check(app) {
      const orders = await waitingDeposits(deps.store, lateDepositGraceMs, app)
      if (orders.length) start()
      await checkOrders(orders)
    },
    async checkOrder(order) {
      if (order.direction === 'offramp' && order.paid_at === null) await checkOrders([order])
    },
    start,
  }
}

type ChainClient = Deps['networks']['list'][number]['client']

/**
 * The transfer that completed the deposit: going through the transfers to the address since the
 * order was made, the one that brought the total to the amount (not a later one, dust included).
 * A DEMO Transfer log, or an ETH transfer in the blocks since the order (up to maxScannedBlocks).
 */
async function fundingTx(client: ChainClient, order: RampOrderRow, address: Address): Promise<Hash | null> {
  const fromBlock = BigInt(order.start_block ?? '0')
  // Not the client's cached block number: the transfer looked for may be in the newest block.
  const latest = await client.getBlockNumber({ cacheTime: 0 })
  const amount = BigInt(order.crypto_amount)
  let total = 0n
  if (order.asset === 'DEMO') {
    const logs = await client.getContractEvents({
      address: demoContracts.demoToken.address,
      abi: erc20Abi,
      eventName: 'Transfer',
      args: { to: address },
      fromBlock,
      toBlock: latest,
    })
    for (const log of logs) {
      total += log.args.value ?? 0n
      if (total >= amount) return log.transactionHash
    }
    return null
  }
  const last = latest - fromBlock > maxScannedBlocks ? fromBlock + maxScannedBlocks : latest
  for (let number = fromBlock; number <= last; number++) {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true })
    for (const tx of block.transactions) {
      if (tx.to?.toLowerCase() !== address.toLowerCase() || tx.value === 0n) continue
      total += tx.value
      if (total >= amount) return tx.hash
    }
  }
  return null
}
