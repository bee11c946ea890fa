import { createSmartAccountClient } from '../../../sdk/smart-account/client.ts'
import type { SmartAccountClient } from '../../../sdk/index.ts'
import { signAccountMessage, signAccountTypedData, signUserOperation } from '../../../sdk/wallet/account-signing.ts'
import type { WidgetClient } from '../../service-client.ts'

/** What the smart-account screen and the smart account (accounts/smart.ts) use of the account-abstraction service (sdk/smart-account/client.ts). */
export type SmartAccountService = Pick<SmartAccountClient, 'create'> & {
  userOp: Pick<SmartAccountClient['userOp'], 'deploy' | 'submit' | 'signTransaction' | 'receipt'>
  /** What the owner's wallet service signs for its smart accounts (sdk/wallet/account-signing.ts): it computes each hash itself. */
  owner: OwnerSigning
}

type Signed = Promise<{ signature: string }>

/** The owner's signatures: an operation's authorisation (by its id, step-up checked), the account's message and typed-data signatures. */
export type OwnerSigning = {
  signUserOperation(params: { userOpId: string; stepUpProof?: string }): Signed
  signAccountMessage(params: { accountId: string; message: string }): Signed
  signAccountTypedData(params: { accountId: string; typedData: string }): Signed
}

const services = new WeakMap<WidgetClient, SmartAccountService>()

/**
 * The account-abstraction service on the frame client's own context (service-client.ts): the same
 * configuration and token holder, so its calls carry the session's wallet token. Built here, in the
 * smart-account page's lazy chunk, to keep it out of the frame's first route.
 */
export function smartAccountService(client: WidgetClient & { smartAccount?: SmartAccountService }): SmartAccountService {
  if (client.smartAccount) return client.smartAccount
  let service = services.get(client)
  if (!service) {
    if (!client.context) throw new Error('The smart wallet service is not available')
    const ctx = client.context
    const owner: OwnerSigning = {
      signUserOperation: (params) => signUserOperation(ctx, params),
      signAccountMessage: (params) => signAccountMessage(ctx, params),
      signAccountTypedData: (params) => signAccountTypedData(ctx, params),
    }
    service = Object.assign(createSmartAccountClient(ctx), { owner })
    services.set(client, service)
  }
  return service
}
