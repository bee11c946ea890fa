import { createPublicClient, http, type Chain, type PublicClient } from 'viem'
import type { RunningChain } from '../../infra/anvil/local-chains.ts'
import { viemChainOf } from '../../contracts/viem-chain.ts'
import { HttpError } from '../../http/exchange.ts'

/** One local chain as the wallet routes use it: the viem chain and a client on its anvil. */
export type Network = {
  readonly chain: RunningChain
  readonly viemChain: Chain
  readonly client: PublicClient
  /**
   * Runs `task` after every earlier task of the same `key` (a wallet address) on this chain has
   * settled: two concurrent sends would otherwise both read the same pending nonce and one would
   * replace or fail the other.
   */
  oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T>
}

export type Networks = {
  /** The chain named by a wallet `network` slug ('local-1'), or a 400. */
  get(network: string): Network
  readonly list: readonly Network[]
}

export function createNetworks(chains: readonly RunningChain[]): Networks {
  const list = chains.map((chain) => {
    const viemChain = viemChainOf(chain)
    // anvil mines on arrival: a short polling interval keeps "send and wait for the receipt" fast.
    const client = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl, { retryCount: 0 }), pollingInterval: 50 })
    return { chain, viemChain, client: client as PublicClient, oneAtATime: createQueues() }
  })
  const byNetwork = new Map(list.map((entry) => [entry.chain.network, entry]))
  return {
    list,
    get(network) {
      const found = byNetwork.get(network)
      if (!found) throw new HttpError(400, `Unsupported network, use one of: ${[...byNetwork.keys()].join(', ')}`)
      return found
    },
  }
}

/** Per-key queues (one chain's): a key's task starts once its previous one has settled, failed or not. */
function createQueues() {
  const queues = new Map<string, Promise<unknown>>()
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = queues.get(key) ?? Promise.resolve()
    const run = previous.then(task, task)
    const settled = run.catch(() => {})
    queues.set(key, settled)
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key)
    })
    return run
  }
}
