import { Hono } from 'hono'
import { isHex, type TypedDataDefinition } from 'viem'
import { accountDomainName, operationPrimaryType } from '../../../sdk/smart-account/operation.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { HttpError, ok, onlyFields, readJson, readString } from '../../http/exchange.ts'
import { accountSignRoutes } from './account-sign-routes.ts'
import { signerOf } from './caller-wallet.ts'
import { signTx } from './transactions.ts'
import { requireTransactionStepUp, stepUpProofField } from './transaction-step-up.ts'
import { feeFieldNames, readQuantity, readTransaction } from './tx-fields.ts'

/**
 * The signing calls of /api/v2/wallet: real secp256k1 signatures by the wallet's own key. None signs
 * a bare hash the caller chose: that would sign a smart account's operation around the step-up rule
 * (the smart accounts' own signing is account-sign-routes.ts, mounted here).
 */
export function signRoutes(deps: Deps) {
  return new Hono<SandboxEnv>()
    .route('/', accountSignRoutes(deps))
    .post('/sign-message', async (c) => {
      const body = await readJson(c)
      const { account } = await signerOf(c, deps)
      onlyFields(body, ['network', 'message'])
      deps.networks.get(readString(body.network, 'network', 64))
      const message = readString(body.message, 'message', 64 * 1024)
      // personal_sign semantics: 0x-hex is the bytes to sign (what dapps pass), anything else is UTF-8 text.
      const signature = await account.signMessage({ message: isHex(message, { strict: true }) && message.length % 2 === 0 ? { raw: message } : message })
      return ok(c, { signature })
    })
    .post('/sign-typed-data', async (c) => {
      const body = await readJson(c)
      const { account } = await signerOf(c, deps)
      onlyFields(body, ['network', 'data'])
      const { chain } = deps.networks.get(readString(body.network, 'network', 64))
      const typedData = parseTypedData(readString(body.data, 'data', 64 * 1024), chain.chainId)
      try {
        return ok(c, { signature: await account.signTypedData(typedData) })
      } catch (error) {
        throw new HttpError(
          400,
          `Invalid typed data: ${error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : 'not signable'}`,
        )
      }
    })
    .post('/sign-transaction', async (c) => {
      const body = await readJson(c)
      const signer = await signerOf(c, deps)
      onlyFields(body, ['network', 'transaction', stepUpProofField])
      const network = deps.networks.get(readString(body.network, 'network', 64))
      const request = readTransaction(body.transaction, signer.address, {
        dataRequired: false,
        allowed: ['from', 'to', 'value', 'data', ...feeFieldNames],
      })
      // A signed transaction is as good as a sent one: anyone can broadcast it.
      await requireTransactionStepUp(c, deps, network, signer.address, request, body[stepUpProofField])
      return ok(c, { signedTransaction: await signTx(network, signer.account, request) })
    })
}

/** eth_signTypedData_v4's JSON: domain, types, primaryType, message. A domain chainId must be the call's chain. */
function parseTypedData(json: string, chainId: number): TypedDataDefinition {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    throw new HttpError(400, 'data must be EIP-712 typed data as a JSON string')
  }
  const typed = value as Partial<Record<'domain' | 'types' | 'primaryType' | 'message', unknown>>
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, 'data must be a JSON object')
  if (typeof typed.types !== 'object' || typed.types === null || Array.isArray(typed.types)) throw new HttpError(400, 'data.types is required')
  if (typeof typed.primaryType !== 'string') throw new HttpError(400, 'data.primaryType is required')
  if (typeof typed.message !== 'object' || typed.message === null) throw new HttpError(400, 'data.message is required')
  const domain = (typed.domain ?? {}) as Record<string, unknown>
  if (typeof domain !== 'object' || Array.isArray(domain)) throw new HttpError(400, 'data.domain must be an object')
  // An operation's authorisation is typed data in the account's domain: only sign-user-operation gives it, step-up checked.
  // Nor is the account's ERC-1271 signature given here: any data in its domain, or an ERC-7739
  // TypedDataSign naming it, is the account's to sign (sign-account-typed-data).
  const typedDataSign = Object.hasOwn(typed.types, 'TypedDataSign') && namesAccountDomain(typed.message as Record<string, unknown>)
  if (namesAccountDomain(domain) || typedDataSign || typed.primaryType === operationPrimaryType || Object.hasOwn(typed.types, operationPrimaryType))
    throw new HttpError(400, "Typed data in a smart account's own domain is not signed here")
  if (domain.chainId !== undefined && domain.chainId !== null && readQuantity(domain.chainId, 'data.domain.chainId') !== BigInt(chainId))
    throw new HttpError(400, `data.domain.chainId does not match the network (${chainId})`)
  return { domain, types: typed.types, primaryType: typed.primaryType, message: typed.message } as TypedDataDefinition
}

/** Fields naming the account's EIP-712 domain: its name, also as bytes (an array of numbers), which viem hashes as the same string. */
const namesAccountDomain = (fields: Record<string, unknown>) =>
  fields.name !== undefined && (typeof fields.name !== 'string' || fields.name === accountDomainName)
