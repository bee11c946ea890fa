import { createWalletClient, defineChain, http, parseEther, publicActions, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { RunningChain } from './chains.ts'

/** anvil's default account 0 (from its well-known test mnemonic), funded with 10,000 ETH on every fresh chain. */
const faucetKey = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

export const faucetAmount = parseEther('10')

export type Faucet = { fund(address: Address): Promise<void> }

export function createFaucet(chains: readonly RunningChain[]): Faucet {
  const account = privateKeyToAccount(faucetKey)
  const senders = chains.map((chain) => {
    const client = createWalletClient({
      account,
      chain: defineChain({
        id: chain.chainId,
        name: chain.name,
        nativeCurrency: chain.nativeCurrency,
        rpcUrls: { default: { http: [chain.rpcUrl] } },
      }),
      transport: http(chain.rpcUrl),
      pollingInterval: 50,
    }).extend(publicActions)
    // One send at a time per chain: concurrent sends from one account would race for the same nonce.
    let queue: Promise<unknown> = Promise.resolve()
    return (to: Address) => {
      const send = queue.then(async () => {
        const hash = await client.sendTransaction({ to, value: faucetAmount })
        const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
        if (receipt.status !== 'success') throw new Error(`Faucet transfer ${hash} reverted on chain ${chain.chainId}`)
      })
      queue = send.catch(() => {})
      return send
    }
  })
  return {
    async fund(address) {
      await Promise.all(senders.map((send) => send(address)))
    },
  }
}
