import { isHex } from '../../bridge/rpc-params.ts'
import type { ChainConfig, Client } from '../../sdk/index.ts'
import type { TransactionRequest } from '../../sdk/wallet/types.ts'
import { lazyModule } from '../lazy-module.ts'
import type { Account } from './account.ts'

/** How a message is shown, which decides how it is sent (viem's UTF-8 and sign-in reading): preloaded with the other lazy parts, and asked for again with each account. */
const display = lazyModule(() => import('../confirm/presentation.ts')).get
/** The step-up hash of a transaction (viem's hashing): preloaded with the other lazy parts. */
const stepUpHash = lazyModule(() => import('./step-up-hash.ts')).get

/** The most bytes a message may have: as 0x-hex they must fit the wallet service's 64 KB body. */
const maxMessageBytes = 32_000

/**
 * personal_sign for the embedded wallet. The service reads an even-length 0x-hex message as the bytes
 * to sign, so plain readable text goes as text and anything else as the hex of its exact bytes: both
 * sign the same bytes. The wallet service signs no bare hash, so nothing is hashed here.
 */
export async function signMessage(client: Pick<Client, 'wallet'>, network: string, bytes: `0x${string}`): Promise<`0x${string}`> {
  const view = (await display()).describeMessage(bytes)
  const asText = view.as === 'text' && view.warning === null && !isHex(view.shown)
  if (!asText && bytes.length > 2 + 2 * maxMessageBytes) throw new Error(`This message is too long to sign (at most ${maxMessageBytes} bytes)`)
  const { signature } = await client.wallet.signMessage({ network, message: asText ? view.shown : bytes })
  return signature as `0x${string}`
}

/**
 * The wallet service refused a transaction (the embedded wallet's own, or its authorisation of a
 * smart account's operation) for want of a step-up: whoever shows the confirmation (the
 * confirmation modal) answers with the proof, asked of the user for the hash of that very
 * transaction, or refuses (the user closed it: a 4001). One screen answers at a time.
 */
type Ask = (request: `0x${string}`) => Promise<string>

let answer: Ask | null = null

export const transactionStepUp = {
  /** `ask` answers from now on; the function returned stops it. */
  answerWith(ask: Ask) {
    answer = ask
    return () => {
      if (answer === ask) answer = null
    }
  },
  ask(request: `0x${string}`): Promise<string> {
    return answer ? answer(request) : Promise.reject(new Error('A confirmation code is needed and cannot be asked here'))
  },
}

/** The wallet service's 403 `Step-up required` for a transaction (data.stepUp.action). */
export function needsTransactionStepUp(error: unknown): boolean {
  const details = (error as { details?: { data?: { stepUp?: { action?: unknown } } } } | null)?.details
  return (error as { code?: unknown } | null)?.code === '403' && details?.data?.stepUp?.action === 'send-transaction'
}

/**
 * A transaction above the app's step-up threshold is refused by the service until the user answers a
 * code for it (transactionStepUp): then it is sent again, once, with the proof for its own hash.
 */
async function withStepUp<T>(chain: ChainConfig, transaction: TransactionRequest, call: (stepUpProof?: string) => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (!needsTransactionStepUp(error)) throw error
    return call(await transactionStepUp.ask((await stepUpHash()).transactionHashOf(chain.chainId, transaction)))
  }
}

/** The embedded wallet: its key stays with the wallet service, which signs for the held session. */
export function embeddedAccount(client: Pick<Client, 'wallet'>, address: `0x${string}`, chain: ChainConfig): Account {
  const network = chain.network
  void display().catch(() => {})
  void stepUpHash().catch(() => {})
  return {
    source: 'embedded',
    address,
    chain,
    signMessage: (bytes) => signMessage(client, network, bytes),
    async signTypedData(json) {
      return (await client.wallet.signTypedData({ network, data: json })).signature as `0x${string}`
    },
    estimateGas: (tx) => client.wallet.estimateGas({ network, type: 'custom', transaction: tx }),
    async sendTransaction(transaction) {
      const send = (stepUpProof?: string) => client.wallet.sendTransaction({ network, transaction, ...(stepUpProof && { stepUpProof }) })
      return (await withStepUp(chain, transaction, send)).txReceipt.hash as `0x${string}`
    },
    async signTransaction(transaction) {
      const sign = (stepUpProof?: string) => client.wallet.signTransaction({ network, transaction, ...(stepUpProof && { stepUpProof }) })
      return (await withStepUp(chain, transaction, sign)).signedTransaction as `0x${string}`
    },
    // Calls run one after another as ordinary transactions; the smart account makes them atomic.
    atomic: 'unsupported',
  }
}
