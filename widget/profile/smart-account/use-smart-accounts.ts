import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { SmartAccount } from '../../../sdk/index.ts'
import { isAddress } from 'viem'
import { isHash, sameAddress } from '../../../bridge/rpc-params.ts'
import { signOperation } from '../../accounts/operation-signature.ts'
import { useWidget } from '../../context.ts'
import { errorText } from '../../use-timed.ts'
import { smartAccountService } from './service.ts'

/** While an account is being activated, its status is read again this often (a local chain mines it in a second or two). */
export const smartAccountPollMs = 1000

const accountsKey = (owner: string) => ['smart-accounts', owner.toLowerCase()] as const

/**
 * The owner's smart accounts, one per chain of the app. The service's create is idempotent: it
 * answers the accounts that exist, with their current status. Read afresh each time the page
 * opens, and every second while one is deploying.
 */
export function useSmartAccounts(owner: `0x${string}`) {
  const { client } = useWidget()
  return useQuery<SmartAccount[], Error>({
    queryKey: accountsKey(owner),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.some((account) => account.status === 'deploying') ? smartAccountPollMs : false),
    queryFn: async ({ signal }) =>
      (await smartAccountService(client).create({ owner: { id: owner.toLowerCase(), provider: 'wallet-kit' } }, { signal })).accounts,
  })
}

/**
 * Activate (the pending text 'Activating...', then the accounts read again): the service builds the deploy operation and answers its hash; the
 * owner (the embedded wallet) authorises it: the wallet service signs EIP-712 typed data in the
 * account's own domain for the operation it stored (accounts/operation-signature.ts); the operation goes
 * back with that signature, sponsored as built; then the accounts are read again. `pending` holds
 * from the click until that read has answered; a failure at any step is `error`, and Activate can
 * be pressed again.
 */
export function useActivate(owner: `0x${string}`, account: Pick<SmartAccount, 'id' | 'chainId' | 'aaAddress'>) {
  const accountId = account.id
  const { client, wallet } = useWidget()
  const queries = useQueryClient()
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function activate() {
    if (pending) return
    setPending(true)
    setError(null)
    try {
      const service = smartAccountService(client)
      // The owner signs, also while the site sees the smart account.
      const session = wallet.ui.get().session
      const chain = wallet.chain()
      if (!session || session.walletConnect || !sameAddress(session.address, owner) || !chain)
        throw new Error('Sign in with the wallet that owns this smart wallet')
      if (!isAddress(account.aaAddress)) throw new Error('The smart wallet service answered an unexpected account')
      const { hash, userOpId, isSponsored } = await service.userOp.deploy.hash({ accountId, isSponsored: true })
      if (!isHash(hash) || typeof userOpId !== 'string') throw new Error('The smart wallet service answered an unexpected operation')
      // The wallet service signs the operation it stored (accounts/operation-signature.ts); a deploy moves no value.
      const signature = await signOperation(service.owner, { userOpId, chainId: account.chainId, account: account.aaAddress, calls: [] })
      await service.userOp.submit({ hash, userOpId, signature, isSponsored: isSponsored === true })
      await queries.invalidateQueries({ queryKey: accountsKey(owner) })
    } catch (err) {
      setError(errorText(err))
    } finally {
      setPending(false)
    }
  }

  return { activate, pending, error }
}
