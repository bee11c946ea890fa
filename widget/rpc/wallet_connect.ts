import { stringToHex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { Refusal } from '../../bridge/rpc-params.ts'
import { connectParams, type SignInParams } from '../../bridge/sign-in-params.ts'
import type { Account } from '../accounts/account.ts'
import { invalid, requireAccount } from './guards.ts'
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
  if (signedNonces.has(siwe.nonce) || waitingNonces.has(siwe.nonce))
    throw invalid('signInWithEthereum.nonce was already signed or is waiting to be: ask the server for a new one')
  return { ...own, chainId, uri: siwe.uri ?? own.origin }
}

/** The EIP-4361 message, written by the wallet from the dapp's fields and the page's verified site. */
function message(account: Account, siwe: SignInParams, checked: ReturnType<typeof checkSignIn>): string {
  return createSiweMessage({
    address: account.address,
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
}

/**
 * ERC-7846: connects this page as eth_requestAccounts does (the login or 'Connect to <site>?'), and
 * with signInWithEthereum asks one confirmation for the sign-in message, signed as personal_sign
 * signs (a smart account's signature verifies through ERC-1271 / ERC-6492). Other capabilities are
 * not supported and left unanswered.
 */
export const wallet_connect: RpcHandler<'wallet_connect'> = async (ctx, [raw]) => {
  let siwe: SignInParams | undefined
  try {
    siwe = connectParams(raw)?.capabilities?.signInWithEthereum ?? undefined
  } catch (err) {
    if (err instanceof Refusal) throw invalid(`Invalid params for wallet_connect: params[0]${err.reason}`)
    throw err
  }
  const checked = siwe && checkSignIn(ctx, siwe)
  await ctx.wallet.requestAccounts()
  const account = requireAccount(ctx, siwe?.address)
  if (!siwe || !checked) return { accounts: [{ address: account.address, capabilities: {} }] }
  // A smart account's signature is checked by its code on its own chain.
  if (account.source === 'smart-account' && account.chain.chainId !== checked.chainId)
    throw invalid(`signInWithEthereum.chainId must be the smart account's chain (${account.chain.chainId})`)
  const text = message(account, siwe, checked)
  const bytes = stringToHex(text)
  const nonce = siwe.nonce
  // Checked again: another request for this nonce may have been asked while this one connected.
  if (signedNonces.has(nonce) || waitingNonces.has(nonce)) throw invalid('signInWithEthereum.nonce was already signed or is waiting to be')
  waitingNonces.add(nonce)
  const signature = await confirmMessage(ctx, account, bytes, { rejected: 'Sign-in rejected by user', failed: 'Failed to sign in' }).finally(() =>
    waitingNonces.delete(nonce),
  )
  signedNonces.add(nonce)
  if (signedNonces.size > maxRemembered) signedNonces.delete(signedNonces.values().next().value!)
  return { accounts: [{ address: account.address, capabilities: { signInWithEthereum: { message: text, signature } } }] }
}

/** ERC-7846: forgets this site, as revoking eth_accounts does (a paired WalletConnect wallet is disconnected). */
export const wallet_disconnect: RpcHandler<'wallet_disconnect'> = (ctx) => wallet_revokePermissions(ctx, [{ eth_accounts: {} }])
