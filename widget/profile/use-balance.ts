import { useQuery } from '@tanstack/react-query'
import { formatEther, hexToBigInt } from 'viem'
import { useWidget } from '../context.ts'
import { formatAmount } from '../format.ts'

/** The native balance on the current chain, read from its RPC URLs (with fallback). */
export function useBalance(address: string | undefined, chainId: number) {
  const { rpc } = useWidget()
  return useQuery({
    queryKey: ['balance', chainId, address],
    enabled: !!address,
    staleTime: 10_000,
    queryFn: async () => {
      const wei = await rpc(chainId).request<`0x${string}`>({ method: 'eth_getBalance', params: [address, 'latest'] })
      return formatAmount(formatEther(hexToBigInt(wei)))
    },
  })
}
