import { ChainDisconnectedError } from '../../bridge/error-classes.ts'
import { isQuantity } from '../../bridge/rpc-params.ts'
import type { ChainConfig } from '../../sdk/index.ts'
import type { ChainSwitch } from '../rpc/ports.ts'

/** How long a chain's RPC URLs have to answer before a switch to it fails (the RPC client itself has no timeout and would wait without end). */
export const reachTimeoutMs = 10_000

/**
 * Switches the active chain once the chain's RPC URLs (in order, with fallback) answer
 * eth_chainId with its own id. A switch is pending (a spinner), then succeeds, or fails
 * and nothing changes; a chain the kit cannot reach (no answer, all RPC URLs failing, another
 * chain behind its URL) fails with 4901 before anything changes, rather than leaving the dapp on a
 * chain whose every read fails. A chain the app does not offer is the wallet's own 4902.
 */
export async function switchChain(ctx: ChainSwitch, chainId: number, timeoutMs = reachTimeoutMs): Promise<void> {
  const chain = ctx.wallet.chain(chainId)
  if (!chain || ctx.wallet.chainId() === chainId) return ctx.wallet.switchChain(chainId)
  let answer: unknown
  try {
    answer = await ctx.rpc(chainId).request({ method: 'eth_chainId' }, { signal: AbortSignal.timeout(timeoutMs) })
  } catch (err) {
    throw unreachable(chain, err instanceof Error && err.message ? err.message : 'no answer')
  }
  if (!isQuantity(answer, 15) || Number(answer) !== chainId)
    throw unreachable(chain, `its RPC answers for another chain (${JSON.stringify(answer)?.slice(0, 40)})`)
  await ctx.wallet.switchChain(chainId)
}

/** EIP-1193's 4901: the provider is not connected to the requested chain. */
export const isUnreachable = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === ChainDisconnectedError.code

const unreachable = (chain: ChainConfig, reason: string) =>
  new ChainDisconnectedError({ message: `${chain.name} (${chain.chainId}) cannot be reached: ${reason}` })
