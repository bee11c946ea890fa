import { randomUUID } from 'node:crypto'
import { getAddress, type Address, type Hex } from 'viem'
import { entryPoint07Abi, toSoladySmartAccount } from 'viem/account-abstraction'
import { accountAddressOf, accountFactoryAddress, entryPointAddress, smartAccountSalt } from '../../contracts/account-abstraction.ts'
import type { Store } from '../../infra/database/store.ts'
import { HttpError } from '../../http/exchange.ts'
import type { Network, Networks } from '../chain/networks.ts'
import { accountById, accountsOf, insertAccount, moveUndeployedAccount, pendingDeploys, setAccountStatus, type AccountRow, type AppRef } from './queries.ts'

/** An account as the service answers it (the fields the kit's smart-account list reads). */
export type WireAccount = { id: string; chainId: number; network: string; status: AccountRow['status']; aaAddress: Address }

/** viem's model of our account (Solady ERC4337 behind our factory) for one owner on one chain. */
export function accountModel(network: Network, owner: Address) {
  return toSoladySmartAccount({
    client: network.client,
    owner,
    factoryAddress: accountFactoryAddress,
    salt: smartAccountSalt(owner),
    entryPoint: { abi: entryPoint07Abi, address: entryPointAddress, version: '0.7' },
  })
}

export const networkOfChain = (networks: Networks, chainId: number): Network => {
  const network = networks.list.find((n) => n.chain.chainId === chainId)
  if (!network) throw new HttpError(400, `Chain ${chainId} is not served by this sandbox`)
  return network
}

/** The owner's account on every local chain: created (counterfactually) on first ask, status refreshed from the chain. */
export async function ownerAccounts(store: Store, networks: Networks, app: AppRef, owner: Address, provider: string): Promise<WireAccount[]> {
  const known = new Map((await accountsOf(store, app, owner)).map((row) => [row.chain_id, row]))
  const result: WireAccount[] = []
  for (const network of networks.list) {
    const chainId = network.chain.chainId
    let row = known.get(chainId)
    // Computed by an older factory (the account code changed, issue 21) and never deployed: nothing lives there, it moves to the current address.
    if (row && row.status !== 'deployed' && getAddress(row.address) !== accountAddressOf(owner) && !(await network.client.getCode({ address: row.address }))) {
      await moveUndeployedAccount(store, row.id, accountAddressOf(owner))
      row = { ...row, address: accountAddressOf(owner) }
    }
    if (!row) {
      const address = getAddress(await (await accountModel(network, owner)).getAddress())
      row = {
        id: randomUUID(),
        app_id: app.appId,
        environment: app.environment,
        owner,
        owner_provider: provider,
        chain_id: chainId,
        address,
        status: 'not_deployed',
      }
      await insertAccount(store, row)
      row = (await accountsOf(store, app, owner)).find((r) => r.chain_id === chainId)!
    }
    result.push(await withStatus(store, network, row))
  }
  return result
}

/** Reads the status from what is on chain and in the bundler's queue, and stores it when it changed. */
export async function withStatus(store: Store, network: Network, row: AccountRow): Promise<WireAccount> {
  let status = row.status
  if (status !== 'deployed') {
    if (await network.client.getCode({ address: row.address })) status = 'deployed'
    else status = (await pendingDeploys(store, row.chain_id, row.address)) > 0 ? 'deploying' : 'not_deployed'
    if (status !== row.status) await setAccountStatus(store, row.chain_id, row.address, status)
  }
  return { id: row.id, chainId: row.chain_id, network: network.chain.network, status, aaAddress: row.address }
}

/** An account of this app by id; for a caller who is a wallet (the widget), only one of its own. */
export async function accountFor(store: Store, app: AppRef, accountId: unknown, owner: Address | undefined): Promise<AccountRow> {
  if (typeof accountId !== 'string' || accountId.length > 64) throw new HttpError(400, 'accountId is required')
  const row = await accountById(store, app, accountId)
  if (!row || (owner && row.owner !== owner)) throw new HttpError(404, 'Smart account not found')
  return row
}

export type AccountCall = { to: Address; value?: bigint; data?: Hex }
