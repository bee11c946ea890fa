import { Hono, type Context } from 'hono'
import type { Deps, SandboxEnv } from '../../context.ts'
import { coinTransfer, erc1155Transfer, erc721Transfer, tokenTransfer, type Call } from './transfer-calls.ts'
import { ok, readJson, readString, type JsonObject, onlyFields } from '../../http/exchange.ts'
import type { Network } from '../chain/networks.ts'
import { signerOf } from './caller-wallet.ts'
import { sendTx } from './transactions.ts'
import { feeFieldNames, readFees, readTransaction, type FeeFields } from './tx-fields.ts'
import { cancelTransaction } from './cancel.ts'
import { requireTransactionStepUp, stepUpProofField } from './transaction-step-up.ts'

type Signer = Awaited<ReturnType<typeof signerOf>>

/** The sending calls of /api/v2/wallet: signed by the wallet's key, broadcast, answered once mined. */
export function sendRoutes(deps: Deps) {
  /** A route whose body is `network` plus `fields`, turned into one transaction by `build`. */
  const sending =
    (fields: readonly string[], build: (body: JsonObject, network: Network, signer: Signer) => Promise<Call & FeeFields> | (Call & FeeFields)) =>
    async (c: Context<SandboxEnv>) => {
      const body = await readJson(c)
      const signer = await signerOf(c, deps)
      onlyFields(body, ['network', ...fields])
      const network = deps.networks.get(readString(body.network, 'network', 64))
      const request = await build(body, network, signer)
      // Every sending route: one that moves no native value passes this without a look at a proof.
      await requireTransactionStepUp(c, deps, network, signer.address, request, body[stepUpProofField])
      return ok(c, { txReceipt: await sendTx(network, signer.account, request) })
    }
  const transfer = ['to', 'amount']
  return new Hono<SandboxEnv>()
    .post(
      '/send-transaction',
      sending(['transaction', stepUpProofField], (body, _, signer) =>
        readTransaction(body.transaction, signer.address, { dataRequired: true, allowed: ['from', 'to', 'value', 'data', ...feeFieldNames] }),
      ),
    )
    .post(
      '/send-coin',
      sending([...transfer, ...feeFieldNames, stepUpProofField], (body) => ({ ...coinTransfer(body), ...readFees(body) })),
    )
    .post(
      '/send-token',
      sending([...transfer, 'tokenAddress', ...feeFieldNames], async (body, network) => ({ ...(await tokenTransfer(network, body)), ...readFees(body) })),
    )
    .post(
      '/transfer-erc721',
      sending(['to', 'tokenId', 'tokenAddress'], (body, _, signer) => erc721Transfer(signer.address, body)),
    )
    .post(
      '/transfer-erc1155',
      sending(['to', 'amount', 'tokenId', 'tokenAddress'], (body, _, signer) => erc1155Transfer(signer.address, body)),
    )
    .post('/cancel-transaction', async (c) => {
      const body = await readJson(c)
      const signer = await signerOf(c, deps)
      onlyFields(body, ['network', 'nonce'])
      const network = deps.networks.get(readString(body.network, 'network', 64))
      return ok(c, { txReceipt: await cancelTransaction(network, signer.account, body.nonce) })
    })
}
