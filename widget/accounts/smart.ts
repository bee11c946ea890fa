import { UnsupportedMethodError } from '../../bridge/error-classes.ts'
import { isHash } from '../../bridge/rpc-params.ts'
import type { ChainConfig } from '../../sdk/index.ts'
import type { WidgetClient } from '../service-client.ts'
import type { Account, BatchCall, CallsStatus } from './account.ts'
import { signOperation } from './operation-signature.ts'

/** The service's client, in the smart-account page's lazy chunk (kept out of the frame's first route). */
const service = async (client: WidgetClient) => (await import('../profile/smart-account/service.ts')).smartAccountService(client)

/** How long a send waits for its operation to be included before it answers an error. */
const includedWithinMs = 60_000

/** A decimal amount of ether ("0.5", what the wallet service takes) in wei, as the smart-account service takes it. */
function weiOf(value: string | undefined): string {
  if (!value || value === '0') return '0'
  const [whole = '0', fraction = ''] = value.split('.')
  if (!/^\d+$/.test(whole) || !/^\d*$/.test(fraction) || fraction.length > 18) throw new UnsupportedMethodError({ message: `Unreadable value ${value}` })
  return (BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, '0'))).toString()
}

/**
 * The embedded wallet's smart account (ERC-4337), once the user chose to use it on the site: the
 * host sees its address. Its owner, the embedded wallet, signs for it: messages and typed data as
 * ERC-7739 hashes (the service wraps them into ERC-1271 signatures, ERC-6492 while the account is
 * not deployed); a transaction or a batch of calls becomes one user operation, which the owner
 * authorises with EIP-712 typed data in the account's domain (operation-signature.ts), sponsored by
 * the app's gas tank.
 */
export function smartAccount(client: WidgetClient, use: { address: `0x${string}`; accountId: string }, chain: ChainConfig): Account {
  const { accountId } = use
  /** Builds the operation for `calls`, has the owner authorise it (step-up asked above the threshold), submits it: its id. */
  async function submit(calls: readonly BatchCall[]): Promise<string> {
    const s = await service(client)
    const built = await s.userOp.signTransaction.hash({ accountId, calls, isSponsored: true })
    if (!isHash(built.hash) || typeof built.userOpId !== 'string') throw new Error('The smart wallet service answered an unexpected operation')
    const signature = await signOperation(s.owner, { userOpId: built.userOpId, chainId: chain.chainId, account: use.address, calls })
    await s.userOp.submit({ hash: built.hash, userOpId: built.userOpId, signature, isSponsored: true })
    return built.userOpId
  }
  async function status(userOpId: string, wait: boolean): Promise<CallsStatus> {
    const receipt = await (await service(client)).userOp.receipt({ userOpId, wait })
    return {
      status: receipt.status,
      ...(receipt.txHash && { txHash: receipt.txHash as `0x${string}` }),
      ...(receipt.success !== undefined && { success: receipt.success }),
      ...(receipt.reason && { reason: receipt.reason }),
    }
  }
  return {
    source: 'smart-account',
    address: use.address,
    chain,
    sponsored: true,
    // The wallet service computes the ERC-7739 hash from the message or typed data and this account, and signs it.
    signMessage: async (bytes) => (await (await service(client)).owner.signAccountMessage({ accountId, message: bytes })).signature as `0x${string}`,
    signTypedData: async (json) => (await (await service(client)).owner.signAccountTypedData({ accountId, typedData: json })).signature as `0x${string}`,
    // The gas is the operation's, paid by the app's gas tank: nothing for the user to pay or sign.
    estimateGas: async () => ({ gasLimit: '0', maxFeePerGas: '0', maxPriorityFeePerGas: '0' }),
    async sendTransaction(tx) {
      const userOpId = await submit([{ to: tx.to, value: weiOf(tx.value), data: tx.data }])
      const started = Date.now()
      for (;;) {
        const now = await status(userOpId, true)
        // Included but reverted: its bundle transaction succeeded, the call did not. Never answered as a hash.
        if (now.status === 'included' && now.success === false)
          throw new Error(`The operation reverted${now.reason ? `: ${now.reason}` : ''} (transaction ${now.txHash})`)
        if (now.status === 'included' && now.txHash) return now.txHash
        if (now.status === 'failed') throw new Error(now.reason ?? 'The operation failed')
        if (Date.now() - started > includedWithinMs) throw new Error('The operation was not included in time')
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    },
    signTransaction: async () => {
      throw new UnsupportedMethodError({ message: 'A smart account sends user operations: it has no signed transaction to give' })
    },
    atomic: 'supported',
    sendCalls: submit,
    callsStatus: (id) => status(id, false),
  }
}
