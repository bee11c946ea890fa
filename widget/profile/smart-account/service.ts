import { createSmartAccountClient } from '../../../sdk/smart-account/client.ts'
import type { SmartAccountClient } from '../../../sdk/index.ts'
import type { WidgetClient } from '../../service-client.ts'

/** What the smart-account screen and the smart account (accounts/smart.ts) use of the account-abstraction service (sdk/smart-account/client.ts). */
export type SmartAccountService = Pick<SmartAccountClient, 'create'> & {
  userOp: Pick<SmartAccountClient['userOp'], 'deploy' | 'submit' | 'signTransaction' | 'receipt'>
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
    service = createSmartAccountClient(client.context)
    services.set(client, service)
  }
  return service
}
