import { Hono, type Context } from 'hono'
import { formatUnits, getAddress, hashTypedData, isAddress, recoverAddress, type Address, type Hash } from 'viem'
import { kitMarker } from '../../../sdk/smart-account/client.ts'
import { operationTypedData } from '../../../sdk/smart-account/operation.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { readJson, readString, type JsonObject, HttpError, ok } from '../../http/exchange.ts'
import { walletOf } from '../wallet/caller-wallet.ts'
import { readAddress, readBytes32, readHexData, readObject, readQuantity } from '../wallet/tx-fields.ts'
import { accountFor, networkOfChain, ownerAccounts, withStatus } from './accounts.ts'
import { smartAccountAuth } from './auth.ts'
import { BundlerError, loadOp } from './bundler.ts'
import { rejectedByPaymaster } from './bundler-errors.ts'
import { buildOperation, storeBuilt, tankOf } from './operations.ts'
import { accountHashOf, accountSignatureOf } from './erc7739.ts'
import { claimForSubmit, opById, releaseSubmit, tankBalance } from './queries.ts'
import { callsOf, kinds, readMessage, readTypedData, tokenBalance, type Kind } from './requests.ts'
import { verifyTopUp } from './top-up.ts'
import type { SmartAccounts } from './service.ts'

/** Who is calling: an app's back end (HMAC) may act for any owner of the app; the widget only for its wallet. */
type Caller = { app: { appId: string; environment: string }; wallet?: Address }

/**
 * The smart-account service (/api/v1/smart-account, /api/v1/userOp), the calls sdk/'s smart-account
 * client makes. Requests are authenticated as that client signs them: HMAC-signed by the app's client secret with a 5-minute
 * window and no replays, or, from the provider's own origin, unsigned with the kit marker plus the
 * user's wallet token (the widget, acting for that wallet's accounts only).
 */
export function smartAccountRoutes(deps: Deps) {
  const sa = (): SmartAccounts => deps.smartAccounts
  const caller = async (c: Context<SandboxEnv>): Promise<Caller> => {
    const app = c.get('app')
    const ref = { appId: app.appId, environment: app.environment }
    if (c.req.header(kitMarker.header) !== kitMarker.value) return { app: ref }
    return { app: ref, wallet: getAddress((await walletOf(c, deps)).address) }
  }
  const accountOf = async (c: Context<SandboxEnv>, body: JsonObject) => {
    const who = await caller(c)
    const row = await accountFor(deps.store, who.app, body.accountId, who.wallet)
    return { who, row, network: networkOfChain(deps.networks, row.chain_id) }
  }

  const routes = new Hono<SandboxEnv>()
    .use('/smart-account/*', smartAccountAuth(deps))
    .use('/userOp/*', smartAccountAuth(deps))
    .post('/smart-account', async (c) => {
      const body = await readJson(c)
      const who = await caller(c)
      const owner = readObject(body.owner, 'owner')
      const ownerId = readString(owner.id, 'owner.id', 64)
      if (!isAddress(ownerId)) throw new HttpError(400, 'owner.id must be the owner wallet address')
      const address = getAddress(ownerId)
      if (who.wallet && who.wallet !== address) throw new HttpError(403, 'A wallet may only ask for its own smart accounts')
      const provider = owner.provider === undefined ? 'wallet-kit' : readString(owner.provider, 'owner.provider', 64)
      const accounts = await ownerAccounts(deps.store, deps.networks, who.app, address, provider)
      return ok(c, { accounts })
    })
    .post('/smart-account/balance/native', async (c) => {
      const { row, network } = await accountOf(c, await readJson(c))
      const balance = await network.client.getBalance({ address: row.address })
      const currency = network.chain.nativeCurrency
      return ok(c, { balance: formatUnits(balance, currency.decimals), symbol: currency.symbol, decimals: currency.decimals })
    })
    .post('/smart-account/balance/token', async (c) => {
      const body = await readJson(c)
      const { row, network } = await accountOf(c, body)
      return ok(c, await tokenBalance(network, row.address, readAddress(body.tokenAddress, 'tokenAddress')))
    })
    .post('/smart-account/balance/token/batch', async (c) => {
      const body = await readJson(c)
      const { row, network } = await accountOf(c, body)
      if (!Array.isArray(body.tokenAddresses) || body.tokenAddresses.length === 0 || body.tokenAddresses.length > 50)
        throw new HttpError(400, 'tokenAddresses must be a list of 1 to 50 token addresses')
      const tokens = await Promise.all(body.tokenAddresses.map((t, i) => tokenBalance(network, row.address, readAddress(t, `tokenAddresses[${i}]`))))
      return ok(c, { tokens })
    })
    .post('/smart-account/gasTank', async (c) => {
      const body = await readJson(c)
      const who = await caller(c)
      const chainId = Number(readQuantity(body.chainId, 'chainId'))
      networkOfChain(deps.networks, chainId)
      return ok(c, { chainId, balance: (await tankBalance(deps.store, who.app, chainId)).toString(), pool: sa().pool(chainId) })
    })
    .post('/smart-account/topUp', async (c) => {
      const body = await readJson(c)
      const who = await caller(c)
      return ok(c, await verifyTopUp(deps, who.app, body))
    })
    .post('/smart-account/signMessage/hash', async (c) => {
      const body = await readJson(c)
      const { row, network } = await accountOf(c, body)
      const message = readMessage(body.message)
      const hash = accountHashOf({ kind: 'message', message }, await sa().accountDomain(network, row))
      sa().pending.set(hash, { accountId: row.id, kind: 'message', message })
      return ok(c, { hash })
    })
    .post('/smart-account/signTypedData/hash', async (c) => {
      const body = await readJson(c)
      const { row, network } = await accountOf(c, body)
      const typedData = readTypedData(body.typedData)
      const hash = accountHashOf({ kind: 'typedData', typedData }, await sa().accountDomain(network, row))
      sa().pending.set(hash, { accountId: row.id, kind: 'typedData', typedData })
      return ok(c, { hash })
    })
    .post('/smart-account/buildSignature', async (c) => {
      const body = await readJson(c)
      const { row, network } = await accountOf(c, body)
      const hash = readBytes32(body.hash, 'hash')
      const signature = readHexData(body.signature, 'signature')
      const pending = sa().pending.get(hash)
      if (!pending || pending.accountId !== row.id) throw new HttpError(400, 'Unknown hash: ask signMessage/hash or signTypedData/hash first')
      let signer: Address
      try {
        signer = await recoverAddress({ hash, signature })
      } catch {
        throw new HttpError(400, 'signature is not a valid ECDSA signature')
      }
      if (signer !== row.owner) throw new HttpError(400, "The signature is not the owner's")
      const full = await accountSignatureOf(network, row, pending, signature)
      sa().pending.delete(hash)
      return ok(c, { signature: full })
    })
    .post('/userOp/submit', async (c) => {
      const body = await readJson(c)
      const who = await caller(c)
      const userOpId = readString(body.userOpId, 'userOpId', 64)
      const hash = readBytes32(body.hash, 'hash')
      const signature = readHexData(body.signature, 'signature')
      const isSponsored = body.isSponsored === undefined ? false : body.isSponsored
      if (typeof isSponsored !== 'boolean') throw new HttpError(400, 'isSponsored must be true or false')
      const row = await opById(deps.store, userOpId)
      if (!row || row.app_id !== who.app.appId || row.environment !== who.app.environment || !row.account_id)
        throw new HttpError(404, 'User operation not found')
      const account = await accountFor(deps.store, who.app, row.account_id, who.wallet)
      if (row.hash !== hash.toLowerCase()) throw new HttpError(400, 'hash is not the hash of this user operation')
      if (row.sponsored !== isSponsored)
        throw new HttpError(
          400,
          `isSponsored disagrees with the operation: it was built ${row.sponsored ? 'sponsored' : 'unsponsored'}, and its hash covers that`,
        )
      if (row.status !== 'built') throw new HttpError(409, 'This user operation was already submitted')
      // The owner signs EIP-712 typed data in the account's own domain (WalletKitAccount.sol), never the bare hash.
      let signer: Address
      try {
        signer = await recoverAddress({
          hash: hashTypedData(operationTypedData({ chainId: row.chain_id, account: account.address, userOpHash: hash })),
          signature,
        })
      } catch {
        throw new HttpError(400, 'signature is not a valid ECDSA signature')
      }
      if (signer !== account.owner)
        throw new HttpError(400, "The signature is not the owner's signature of this operation (EIP-712 WalletKitOperation in the account's domain)")
      const op = { ...loadOp(row), signature }
      if (!(await claimForSubmit(deps.store, row.id, { ...row.user_op, signature }))) throw new HttpError(409, 'This user operation was already submitted')
      const bundler = sa().bundler(row.chain_id)
      try {
        await bundler.send(op, { id: row.id, kind: row.kind, sponsored: row.sponsored, app: who.app, stored: true })
      } catch (error) {
        await releaseSubmit(deps.store, row.id)
        const tank = error instanceof BundlerError && error.code === rejectedByPaymaster
        throw new HttpError(tank ? 402 : 400, tank ? (error as Error).message : `The bundler refused the operation: ${(error as Error).message}`)
      }
      return ok(c, { userOpHash: row.hash, userOpId: row.id, status: 'submitted' })
    })
    .post('/userOp/receipt', async (c) => {
      const body = await readJson(c)
      const who = await caller(c)
      const row = await opById(deps.store, readString(body.userOpId, 'userOpId', 64))
      if (!row || row.app_id !== who.app.appId || row.environment !== who.app.environment || !row.account_id)
        throw new HttpError(404, 'User operation not found')
      await accountFor(deps.store, who.app, row.account_id, who.wallet)
      const wait = body.wait === true
      const settled = wait
        ? ((await sa()
            .bundler(row.chain_id)
            .settled(row.hash as Hash, 20_000)) ?? row)
        : row
      return ok(c, {
        userOpId: settled.id,
        userOpHash: settled.hash,
        status: settled.status,
        txHash: settled.tx_hash ?? undefined,
        success: settled.receipt?.success,
        actualGasCost: settled.receipt?.actualGasCost,
        actualGasUsed: settled.receipt?.actualGasUsed,
        reason: settled.receipt?.reason ?? settled.reason ?? undefined,
      })
    })

  for (const kind of kinds) {
    routes.post(`/userOp/${kind}/hash`, async (c) => ok(c, await operation(c, kind, 'hash')))
    routes.post(`/userOp/${kind}/estimate`, async (c) => ok(c, await operation(c, kind, 'estimate')))
  }

  async function operation(c: Context<SandboxEnv>, kind: Kind, what: 'hash' | 'estimate') {
    const body = await readJson(c)
    const { who, row, network } = await accountOf(c, body)
    const sponsored = body.isSponsored === undefined ? false : body.isSponsored
    if (typeof sponsored !== 'boolean') throw new HttpError(400, 'isSponsored must be true or false')
    const calls = await callsOf(kind, body, row, network)
    const bundler = sa().bundler(row.chain_id)
    const built = await buildOperation({
      network,
      bundler,
      paymaster: sa().paymaster(row.chain_id),
      account: row,
      calls,
      sponsored,
      tank: tankOf(deps.store, who.app, row.chain_id),
    })
    const status = await withStatus(deps.store, network, row)
    const gas = {
      callGasLimit: built.op.callGasLimit.toString(),
      verificationGasLimit: built.op.verificationGasLimit.toString(),
      preVerificationGas: built.op.preVerificationGas.toString(),
      maxFeePerGas: built.op.maxFeePerGas.toString(),
      maxPriorityFeePerGas: built.op.maxPriorityFeePerGas.toString(),
      maxCost: built.maxCost.toString(),
    }
    if (what === 'estimate') return { ...gas, isSponsored: sponsored, accountStatus: status.status }
    const userOpId = await storeBuilt(deps.store, built, { chainId: row.chain_id, accountId: row.id, app: who.app, kind, sponsored })
    // A sponsored operation its owner may send through any bundler: its gas is charged when the watch sees it on chain.
    if (sponsored) bundler.watch()
    return { hash: built.hash, userOpId, isSponsored: sponsored, chainId: row.chain_id, sender: row.address, ...gas }
  }

  return routes
}
