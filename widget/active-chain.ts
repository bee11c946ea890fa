import { SwitchChainError } from '../bridge/error-classes.ts'
import { chainNotOffered, isChainOffered } from '../bridge/chains.ts'
import type { ChainConfig } from '../sdk/index.ts'
import type { HostPort } from './host-port.ts'
import type { SessionOwner } from './session-owner.ts'
import type { Slice } from './store.ts'
import type { UiState } from './ui-state.ts'

/** A chain id as EIP-1193 writes it (eth_chainId, chainChanged, connect): hex, no leading zeros. */
export const chainHex = (chainId: number): `0x${string}` => `0x${chainId.toString(16)}`

/** EIP-1193's 4902: a chain this app does not configure (a switch, or the check before a browser wallet gets one). */
export const notConfigured = (chainId: number) => new SwitchChainError({ message: chainNotOffered(chainId).message })

/**
 * The one active chain (what eth_chainId answers, the network shown and the network used): among
 * the chains this host offers, kept with the session, announced to the host when it changes.
 */
export function createActiveChain(ui: Slice<UiState, 'chainId'>, chains: readonly ChainConfig[], owner: SessionOwner, host: Pick<HostPort, 'emit'>) {
  const offered = chains.map((c) => c.chainId)
  const isConfigured = (chainId: number) => isChainOffered(chainId, offered)
  return {
    chains,
    defaultChainId: chains[0]?.chainId ?? 31337,
    isConfigured,
    chainId: () => ui.get().chainId,
    chain: (chainId = ui.get().chainId) => chains.find((c) => c.chainId === chainId),
    /** Switches the active chain; 4902 for a chain this app does not configure. */
    async switchChain(chainId: number) {
      if (!isConfigured(chainId)) throw notConfigured(chainId)
      if (ui.get().chainId === chainId) return
      // Only a connected page moves the session's chain (which every tab of every connected site follows).
      if (ui.get().connected) await owner.setChain(chainId)
      ui.set({ chainId })
      host.emit('chainChanged', chainHex(chainId))
    },
    /**
     * Takes `chainId` without a word to the host: the stored session's at start, or another tab's
     * (whoever moved it tells the host, in its own order of events). A chain this page lacks is refused.
     */
    take(chainId: number) {
      if (chains.length > 0 && !isConfigured(chainId)) throw notConfigured(chainId)
      ui.set({ chainId })
    },
  }
}

export type ActiveChain = ReturnType<typeof createActiveChain>
