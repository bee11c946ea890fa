import { stringToHex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { ProviderRpcError, UnauthorizedError } from '../../bridge/error-classes.ts'
import { parseRequest, type ParamsOf, type RpcRequest } from '../../bridge/index.ts'
import type { ConnectAnswer } from '../../bridge/methods.ts'
import { isAddress, Refusal, type Address } from '../../bridge/rpc-params.ts'
import { connectParams, type SignInParams } from '../../bridge/sign-in-params.ts'
import { sameAddress } from '../../bridge/rpc-params.ts'
import { invalid } from './guards.ts'
import { wallet_revokePermissions } from './permissions.ts'
import { confirmMessage } from './personal_sign.ts'
import type { ChainView, SessionView } from './ports.ts'
import type { RpcHandler } from './types.ts'

/**
 * Nonces this frame has signed a sign-in for. The dapp's server makes each nonce once and takes it
 * once; a page that asks for a second signature over a nonce already signed is replaying it (or
 * fishing for a signature it can use elsewhere). Kept for the frame's life, the oldest dropped first.
 */
const signedNonces = new Set<string>()
/**
 * Nonces written into a browser wallet's sign-in (connectAnswer), kept apart: the page gets those
 * with no user in the loop, so were they in the same list it could push out the nonces the embedded
 * wallet signed and have one signed again.
 */
const handedNonces = new Set<string>()
const maxRemembered = 256
/** Nonces of sign-ins waiting for the user: a second request for one is the same replay. */
const waitingNonces = new Set<string>()

/** The page's own site, as the frame verified it when the bridge opened: never what the page claims. */
function site(ctx: SessionView) {
  const url = new URL(ctx.wallet.hostOrigin)
  return { domain: url.host, scheme: url.protocol.slice(0, -1), origin: url.origin }
}

const sameOrigin = (uri: string, origin: string): boolean => {
  try {
    return new URL(uri).origin === origin
  } catch {
    return false
  }
}

/**
 * The sign-in's checks before anything is shown: the message can only name the page's own site
 * (a page asking to sign in elsewhere would be collecting the user's login there), a chain this
 * page is offered, and a nonce not signed before.
 */
function checkSignIn(ctx: SessionView & ChainView, siwe: SignInParams) {
  const own = site(ctx)
  if (siwe.domain != null && siwe.domain.toLowerCase() !== own.domain.toLowerCase())
    throw invalid(`signInWithEthereum.domain must be this site's own (${own.domain}), not ${siwe.domain}`)
  if (siwe.uri != null && !sameOrigin(siwe.uri, own.origin)) throw invalid(`signInWithEthereum.uri must be on this site (${own.origin})`)
  if (siwe.scheme != null && siwe.scheme.toLowerCase() !== own.scheme) throw invalid(`signInWithEthereum.scheme must be this site's (${own.scheme})`)
  const chainId = Number(siwe.chainId)
  if (!ctx.wallet.chains.some((c) => c.chainId === chainId)) throw invalid(`signInWithEthereum.chainId ${chainId} is not a chain this site is offered`)
  if (used(siwe.nonce)) throw invalid('signInWithEthereum.nonce was already signed or is waiting to be: ask the server for a new one')
  return { ...own, chainId, uri: siwe.uri ?? own.origin }
}

/**
 * The EIP-4361 message, written by the wallet from the dapp's fields and the page's verified site,
 * for `address`: the embedded wallet's account, or a browser wallet's that signs it itself.
 */
function message(address: Address, siwe: SignInParams, checked: ReturnType<typeof checkSignIn>): string {
  try {
    return write(address, siwe, checked)
  } catch (err) {
    // Only the page's fields can be what viem will not write (a resource that is no URI): its params are bad.
    throw invalid(`Invalid params for wallet_connect: ${(err as { shortMessage?: string }).shortMessage ?? 'a field cannot be written into the message'}`)
  }
}

const write = (address: Address, siwe: SignInParams, checked: ReturnType<typeof checkSignIn>): string =>
  createSiweMessage({
    address,
    domain: checked.domain,
    scheme: checked.scheme,
    uri: checked.uri,
    chainId: checked.chainId,
    nonce: siwe.nonce,
    version: '1',
    issuedAt: new Date(),
    ...(siwe.statement != null && { statement: siwe.statement }),
    ...(siwe.requestId != null && { requestId: siwe.requestId }),
    ...(siwe.resources != null && { resources: [...siwe.resources] }),
    ...(siwe.expirationTime != null && { expirationTime: new Date(siwe.expirationTime) }),
    ...(siwe.notBefore != null && { notBefore: new Date(siwe.notBefore) }),
  })

const used = (nonce: string) => signedNonces.has(nonce) || handedNonces.has(nonce) || waitingNonces.has(nonce)

/** A nonce is signed (or handed out to be signed) once: remembered for the frame's life, the oldest dropped first. */
function remember(nonces: Set<string>, nonce: string) {
  nonces.add(nonce)
  if (nonces.size > maxRemembered) nonces.delete(nonces.values().next().value!)
}

/**
 * ERC-7846: connects this page as eth_requestAccounts does (the login or 'Connect to <site>?'), and
 * with signInWithEthereum asks one confirmation for the sign-in message, signed as personal_sign
 * signs (a smart account's signature verifies through ERC-1271 / ERC-6492). Other capabilities are
 * not supported and left unanswered.
 */
export const wallet_connect: RpcHandler<'wallet_connect'> = async (ctx, [raw]) => {
  const siwe = readSignIn(raw)
  const checked = siwe && checkSignIn(ctx, siwe)
  await ctx.wallet.requestAccounts()
  const account = ctx.signer(siwe?.address)
  if (!siwe || !checked) return { accounts: [{ address: account.address, capabilities: {} }] }
  // A smart account's signature is checked by its code on its own chain.
  if (account.source === 'smart-account' && account.chain.chainId !== checked.chainId)
    throw invalid(`signInWithEthereum.chainId must be the smart account's chain (${account.chain.chainId})`)
  const text = message(account.address, siwe, checked)
  const bytes = stringToHex(text)
  const nonce = siwe.nonce
  // Checked again: another request for this nonce may have been asked while this one connected.
  if (used(nonce)) throw invalid('signInWithEthereum.nonce was already signed or is waiting to be')
  waitingNonces.add(nonce)
  const signature = await confirmMessage(ctx, account, bytes, { rejected: 'Sign-in rejected by user', failed: 'Failed to sign in' }).finally(() =>
    waitingNonces.delete(nonce),
  )
  remember(signedNonces, nonce)
  return { accounts: [{ address: account.address, capabilities: { signInWithEthereum: { message: text, signature } } }] }
}

/** The signInWithEthereum capability of wallet_connect's param, read (-32602 when malformed). */
function readSignIn(raw: unknown): SignInParams | undefined {
  try {
    return connectParams(raw)?.capabilities?.signInWithEthereum ?? undefined
  } catch (err) {
    if (err instanceof Refusal) throw invalid(`Invalid params for wallet_connect: params[0]${err.reason}`)
    throw err
  }
}

/**
 * ERC-7846 wallet_connect for a browser wallet that does not know it (bridge method connectAnswer):
 * the host page answers it, with the wallet's `accounts`, and has the wallet's own personal_sign sign
 * the sign-in, but the frame writes the message: it alone knows the page's verified site, and holds
 * the sign-in to the embedded wallet's rules (its own site, a chain it is offered, a nonce not signed
 * before). The account is the one the dapp names, when the wallet has it (4100 otherwise), else the
 * wallet's first. Nothing of the frame's session is read: a browser wallet's user is not signed in
 * here. The frame never sees the signature: a nonce counts as signed once its message is handed out.
 */
export function connectAnswer(ctx: SessionView & ChainView, params: unknown, accounts: unknown): ConnectAnswer {
  // Read here, not on the bridge's arrival, so that the frame's first load does not carry it.
  if (!Array.isArray(accounts) || accounts.length === 0 || accounts.length > 100 || !accounts.every(isAddress))
    throw invalid('Invalid arguments for connectAnswer: accounts must be 1 to 100 addresses')
  const [raw] = parseRequest({ method: 'wallet_connect', params: params as RpcRequest['params'] }, (code, message) => new ProviderRpcError(code, message))
    .params as ParamsOf<'wallet_connect'>
  const siwe = readSignIn(raw)
  const checked = siwe && checkSignIn(ctx, siwe)
  if (!ctx.wallet.ui.get().external) throw new UnauthorizedError({ message: 'No browser wallet is connected on this page' })
  if (!siwe || !checked) return [{ accounts: accounts.map((address: Address) => ({ address, capabilities: {} })) }]
  const named = siwe.address
  const address: Address | undefined = named == null ? accounts[0] : accounts.find((a: Address) => sameAddress(a, named))
  if (!address) throw new UnauthorizedError({ message: `Account ${named} is not authorised` })
  const text = message(address, siwe, checked)
  remember(handedNonces, siwe.nonce)
  return [{ accounts: [{ address, capabilities: { signInWithEthereum: { message: text } } }] }, [stringToHex(text), address]]
}

/** ERC-7846: forgets this site, as revoking eth_accounts does (a paired WalletConnect wallet is disconnected). */
export const wallet_disconnect: RpcHandler<'wallet_disconnect'> = (ctx) => wallet_revokePermissions(ctx, [{ eth_accounts: {} }])
