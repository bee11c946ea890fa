import type { Address, FrameMethod } from '../../bridge/index.ts'
import type { ChainClient } from '../../sdk/index.ts'
import type { Account } from '../accounts/account.ts'
import type { Confirmations } from '../confirmation.ts'
import type { HostPort } from '../host-port.ts'
import type { Wallet } from '../wallet.ts'

/*
 * What an RPC handler may reach, by concern. Each port is a narrow, read-only view of the frame's
 * whole context (types.ts RequestContext), which the registry hands every handler: nothing is
 * wrapped at run time, but a handler typed with its ports cannot name what they leave out. A read
 * cannot queue a confirmation, a signature cannot switch chains, nothing here reaches the service
 * client (handlers act through the account). State changes go through the owner's command on the
 * wallet (wallet.ts), never a store: `wallet.ui` is read-only.
 */

/** Session, read: who is signed in, whether this page is connected, what is on screen; this page's origin. */
export type SessionView = { readonly wallet: Pick<Wallet, 'ui' | 'hostOrigin'> }

/** Session: ask the user to connect this page (the connect modal; the login first when nobody is signed in). */
export type ConnectPage = { readonly wallet: Pick<Wallet, 'requestAccounts'> }

/** Session: forget this page (or end a paired wallet's session), and tell the host its accounts are gone. */
export type RevokePage = { readonly wallet: Pick<Wallet, 'setSite' | 'disconnect'> & { readonly host: Pick<HostPort, 'emit'> } }

/** Accounts: the account signing requests act for (null when this page acts for nobody). */
export type AccountPort = { readonly account: () => Account | null }

/** Accounts: who signs for this page, which the registry checks (index.ts `signer`). */
export type SignerPort = {
  /**
   * The account a signing request acts for, checked against the address the request names: 4100
   * when this page acts for nobody, or names another account. Its chain is the active chain (what
   * eth_chainId answers), never the stored one: a host that narrowed its chains may not offer the
   * chain the session was saved on. Asked each time, not once per request.
   */
  readonly signer: (address?: Address | null) => Account
}

/** Chains, read: the active chain and the app's chains. */
export type ChainView = { readonly wallet: Pick<Wallet, 'chainId' | 'chain' | 'chains'> }

/** Chains: JSON-RPC to a chain's RPC URLs (with fallback). */
export type ChainRpc = { readonly rpc: (chainId: number) => ChainClient }

/** Chains: switch the active chain, once its RPC answers (chain/switch.ts). */
export type ChainSwitch = ChainView & ChainRpc & { readonly wallet: Pick<Wallet, 'switchChain'> }

/** Confirmations: queue a request for the user (the only way to a signature or a send). */
export type ConfirmationRequest = { readonly confirmations: Pick<Confirmations, 'request'> }

/** Confirmations: answer every waiting request of this page 4001 (the page gave up its connection). */
export type ConfirmationReset = { readonly confirmations: Pick<Confirmations, 'rejectAll'> }

/** Modal: close it, or show a batch's status in the profile modal. */
export type ModalPort = { readonly wallet: Pick<Wallet, 'close' | 'showCallsStatus'> }

/** A read the chain's RPC answers, on the active chain (reads.ts). */
export type ReadPort = ChainView & ChainRpc

/** A signature or a transaction: who signs, and the queue that asks the user first. */
export type SigningPort = SignerPort & ConfirmationRequest

type Table = {
  eth_accounts: SessionView
  eth_chainId: ChainView
  net_version: ChainView
  eth_requestAccounts: ConnectPage
  // The embedded wallet's own transactions are estimated by its account; anything else is a read.
  eth_estimateGas: ReadPort & AccountPort
  eth_sendTransaction: SigningPort
  eth_signTransaction: SigningPort
  // The session names the user's own smart accounts, whose domain is never signed for a site.
  eth_signTypedData_v4: SigningPort & SessionView
  personal_sign: SigningPort
  wallet_addEthereumChain: ChainSwitch
  wallet_switchEthereumChain: ChainSwitch
  wallet_getCallsStatus: ChainRpc
  wallet_showCallsStatus: ChainRpc & ModalPort
  wallet_getCapabilities: SessionView & AccountPort & ChainView
  wallet_getPermissions: SessionView
  wallet_requestPermissions: SessionView & ConnectPage
  wallet_revokePermissions: SessionView & RevokePage & ConfirmationReset & ModalPort
  // Without a batch call of its own, the account sends each call as eth_sendTransaction does.
  wallet_sendCalls: SigningPort
  // Connects as eth_requestAccounts does, then signs a sign-in for the page's own site, on a chain it is offered.
  wallet_connect: ConnectPage & SessionView & ChainView & SigningPort
  wallet_disconnect: MethodPorts['wallet_revokePermissions']
}

/** Each frame method's ports: a method without an entry does not compile. */
export type MethodPorts = { readonly [M in FrameMethod]: Table[M] }
