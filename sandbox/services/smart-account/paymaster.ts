import { keccak256, type Address, type Hex, type PrivateKeyAccount } from 'viem'
import { paymasterAddressFor, paymasterStubFields, sponsor, type PaymasterFields } from '../../contracts/account-abstraction.ts'
import type { Network } from '../chain/networks.ts'
import type { UserOp } from './bundler.ts'

type AppRef = { appId: string; environment: string }

export type Paymaster = {
  readonly address: Address
  /** Fields of the right shape and size for estimating: a valid signature, by nobody the paymaster trusts. */
  stubFields(): PaymasterFields
  /** Signs sponsorship of `op` (its gas fields final), valid for 10 minutes. The app is remembered, to charge its tank. */
  sign(op: UserOp, app?: AppRef): Promise<PaymasterFields>
  /** The app that asked for the sponsorship `op` carries (ERC-7677 path), if this sandbox signed it. */
  appOf(op: UserOp): AppRef | undefined
}

/** How long a sponsorship signature stays valid: the owner has that long to sign and submit. */
const validForSeconds = 600

/** The sandbox's verifying paymaster on one chain (sandbox/contracts/paymaster.ts): its signer is the sandbox's own key. */
export function createPaymaster(options: { network: Network; signer: PrivateKeyAccount }): Paymaster {
  const { network, signer } = options
  const address = paymasterAddressFor(signer.address)
  const apps = new Map<Hex, { app: AppRef; until: number }>()
  return {
    address,
    stubFields: () => paymasterStubFields({ paymaster: address }),
    async sign(op, app) {
      const validUntil = Math.floor(Date.now() / 1000) + validForSeconds
      const fields = await sponsor(network.client, { paymaster: address, signer, userOp: op, validUntil })
      if (app) {
        const now = Date.now()
        for (const [key, entry] of apps) if (entry.until < now) apps.delete(key)
        // Bounded: past this many live sponsorships the oldest is forgotten (its operation then needs a new one).
        if (apps.size >= 10_000) apps.delete(apps.keys().next().value!)
        apps.set(keccak256(fields.paymasterData), { app, until: validUntil * 1000 })
      }
      return fields
    },
    appOf: (op) => (op.paymasterData ? apps.get(keccak256(op.paymasterData))?.app : undefined),
  }
}
