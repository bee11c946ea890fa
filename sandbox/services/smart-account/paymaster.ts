import type { Address, PrivateKeyAccount } from 'viem'
import { paymasterAddressFor, paymasterStubFields, sponsor, type PaymasterFields } from '../../contracts/account-abstraction.ts'
import type { Network } from '../chain/networks.ts'
import type { AccountKinds } from './account-kinds.ts'
import type { UserOp } from './bundler-types.ts'
import { checkSponsorable } from './bundler-policy.ts'

export type Paymaster = {
  readonly address: Address
  /** Fields of the right shape and size for estimating: a valid signature, by nobody the paymaster trusts. */
  stubFields(): PaymasterFields
  /**
   * Signs sponsorship of `op` (its gas fields final), valid for 10 minutes. Whoever hands the
   * signature out sets the operation's cost aside in a gas tank first or at once (the service's
   * operations when sent; ERC-7677's pm_getPaymasterData before answering, rpc-routes.ts).
   */
  sign(op: UserOp): Promise<PaymasterFields>
}

/** How long a sponsorship signature stays valid: the owner has that long to sign and submit. */
const validForSeconds = 600

/** The sandbox's verifying paymaster on one chain (sandbox/contracts/paymaster.ts): its signer is the sandbox's own key. */
export function createPaymaster(options: { network: Network; signer: PrivateKeyAccount; accounts: AccountKinds }): Paymaster {
  const { network, signer, accounts } = options
  const address = paymasterAddressFor(signer.address)
  return {
    address,
    stubFields: () => paymasterStubFields({ paymaster: address }),
    async sign(op) {
      // Never an account whose owner's personal_sign can spend it (a SimpleAccount): not on an app's gas tank.
      await checkSponsorable(accounts, op)
      const validUntil = Math.floor(Date.now() / 1000) + validForSeconds
      return await sponsor(network.client, { paymaster: address, signer, userOp: op, validUntil })
    },
  }
}
