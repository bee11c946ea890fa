import { type Context, Hono } from 'hono'
import { getAddress, hashTypedData, isAddressEqual, maxUint256, type Hex } from 'viem'
import { operationTypedData } from '../../../sdk/smart-account/operation.ts'
import { operationRequestHash } from '../../../sdk/wallet/transaction-hash.ts'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { onlyFields, readJson, readString, HttpError, ok } from '../../http/exchange.ts'
import type { Network } from '../chain/networks.ts'
import { accountFor, accountModel, networkOfChain, type AccountCall } from '../smart-account/accounts.ts'
import { loadOp } from '../smart-account/bundler.ts'
import { accountHashOf, accountSignatureOf, type AccountSignRequest } from '../smart-account/erc7739.ts'
import { opById, type AccountRow } from '../smart-account/queries.ts'
import { readMessage, readTypedData } from '../smart-account/requests.ts'
import { signerOf } from './caller-wallet.ts'
import { requireValueStepUp, stepUpProofField } from './transaction-step-up.ts'

/**
 * What the wallet key signs for the wallet's own smart accounts. The service computes every hash
 * from what it stores or is given (an operation it built, a message, typed data): no route signs a
 * hash the caller chose, so a stolen wallet token cannot get an operation authorised around the
 * step-up rule, and an operation's native value is held to the same threshold as a transaction's.
 */
export function accountSignRoutes(deps: Deps) {
  return new Hono<SandboxEnv>()
    .post('/sign-user-operation', async (c) => {
      const body = await readJson(c)
      const signer = await signerOf(c, deps)
      onlyFields(body, ['userOpId', stepUpProofField])
      const app = smartAccountsOn(c)
      const row = await opById(deps.store, readString(body.userOpId, 'userOpId', 64))
      if (!row || row.app_id !== app.appId || row.environment !== app.environment || !row.account_id) throw new HttpError(404, 'User operation not found')
      const account = await accountFor(deps.store, app, row.account_id, getAddress(signer.address))
      if (row.status !== 'built') throw new HttpError(409, 'This user operation was already submitted')
      const network = networkOfChain(deps.networks, row.chain_id)
      const op = loadOp(row)
      // What is signed is recomputed from the operation as stored, which is what the bundler will run.
      const userOpHash = deps.smartAccounts.bundler(row.chain_id).userOpHash(op)
      if (!isAddressEqual(op.sender, account.address) || userOpHash.toLowerCase() !== row.hash)
        throw new HttpError(409, 'The stored operation does not match its hash')
      const calls = await callsRunBy(network, account, op.callData)
      // A call to the EntryPoint (withdrawTo: the account's deposit) or to the account itself (a new
      // owner, an upgrade) moves native value with none on the call: held as if it moved everything.
      const unbounded = calls.some((call) => isAddressEqual(call.to, entryPointAddress) || isAddressEqual(call.to, account.address))
      const value = unbounded ? maxUint256 : calls.reduce((sum, call) => sum + (call.value ?? 0n), 0n)
      const requestHash = () => operationRequestHash({ chainId: row.chain_id, account: account.address, calls })
      await requireValueStepUp(c, deps, network, value, requestHash, body[stepUpProofField])
      const digest = hashTypedData(operationTypedData({ chainId: row.chain_id, account: account.address, userOpHash }))
      return ok(c, { signature: await signer.account.sign({ hash: digest }) })
    })
    .post('/sign-account-message', async (c) => {
      const body = await readJson(c)
      const signer = await signerOf(c, deps)
      onlyFields(body, ['accountId', 'message'])
      return ok(c, { signature: await signForAccount(c, signer, body.accountId, { kind: 'message', message: readMessage(body.message) }) })
    })
    .post('/sign-account-typed-data', async (c) => {
      const body = await readJson(c)
      const signer = await signerOf(c, deps)
      onlyFields(body, ['accountId', 'typedData'])
      return ok(c, { signature: await signForAccount(c, signer, body.accountId, { kind: 'typedData', typedData: readTypedData(body.typedData) }) })
    })

  /** The account's ERC-1271 signature of `request`: the owner signs the ERC-7739 hash computed here. */
  async function signForAccount(c: Context<SandboxEnv>, signer: Signer, accountId: unknown, request: AccountSignRequest): Promise<Hex> {
    const row = await accountFor(deps.store, smartAccountsOn(c), accountId, getAddress(signer.address))
    const network = networkOfChain(deps.networks, row.chain_id)
    const hash = accountHashOf(request, await deps.smartAccounts.accountDomain(network, row))
    return accountSignatureOf(network, row, request, await signer.account.sign({ hash }))
  }
}

type Signer = Awaited<ReturnType<typeof signerOf>>

function smartAccountsOn(c: Context<SandboxEnv>) {
  const app = c.get('app')
  if (!app.settings.isAAEnabled) throw new HttpError(403, 'Smart accounts are not enabled for this app')
  return app
}

/** The calls an operation's calldata makes the account run (none: it only deploys the account). */
async function callsRunBy(network: Network, account: AccountRow, callData: Hex): Promise<AccountCall[]> {
  if (callData === '0x') return []
  try {
    return [...(await (await accountModel(network, account.owner)).decodeCalls!(callData))]
  } catch {
    throw new HttpError(400, 'The operation runs calls this wallet cannot read, so it does not sign it')
  }
}
