import { useQuery } from '@tanstack/react-query'
import { formatEther, hexToBigInt } from 'viem'
import { useWidget } from '../context.ts'
import { compactAmount } from '../format.ts'

/**
 * The native balance on the current chain, read from its RPC URLs (with fallback), as the profile's
 * chain row shows it: compact (1.23k), the row also holding the chain's icon and name.
 */
export function useBalance(address: string | undefined, chainId: number) {
  const { rpc } = useWidget()
  return useQuery({
    queryKey: ['balance', chainId, address],
    enabled: !!address,
    staleTime: 10_000,
    queryFn: async () => {
      const wei = await rpc(chainId).request<`0x${string}`>({ method: 'eth_getBalance', params: [address, 'latest'] })
      return compactAmount(formatEther(hexToBigInt(wei)))
    },
  })
}
