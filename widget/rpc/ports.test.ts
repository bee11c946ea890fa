import { describe, expectTypeOf, it } from 'vitest'
import type { FrameMethod } from '../../bridge/index.ts'
import type { wallet_getCallsStatus, wallet_sendCalls } from './calls.ts'
import type { wallet_switchEthereumChain } from './chains.ts'
import type { eth_accounts } from './eth_accounts.ts'
import type { eth_chainId } from './eth_chainId.ts'
import type { eth_sendTransaction } from './eth_sendTransaction.ts'
import type { eth_signTypedData_v4 } from './eth_signTypedData_v4.ts'
import type { wallet_getPermissions, wallet_revokePermissions } from './permissions.ts'
import type { personal_sign } from './personal_sign.ts'
import type { MethodPorts } from './ports.ts'
import type { wallet_connect, wallet_disconnect } from './wallet_connect.ts'
import type { forwardRead } from './reads.ts'
import type { RequestContext } from './types.ts'

/*
 * What each handler can reach, proved on the types: these assertions are checked by the type check
 * (`tsc --noEmit -p .`, part of `npm test`), which fails when a port is widened; at run time they
 * do nothing.
 */

type Port<F> = F extends (ctx: infer P, ...rest: never[]) => unknown ? P : never
/** The methods whose ports reach the context's `key`. */
type Reaching<K extends PropertyKey> = { [M in FrameMethod]: K extends keyof MethodPorts[M] ? M : never }[FrameMethod]
/** The methods whose ports reach the wallet's `key` (a command or a reading). */
type ReachingWallet<K extends PropertyKey> = {
  [M in FrameMethod]: MethodPorts[M] extends { readonly wallet: infer W } ? (K extends keyof W ? M : never) : never
}[FrameMethod]
/** The methods whose ports reach the confirmation queue's `key`. */
type ReachingQueue<K extends PropertyKey> = {
  [M in FrameMethod]: MethodPorts[M] extends { readonly confirmations: infer C } ? (K extends keyof C ? M : never) : never
}[FrameMethod]

type Signing = 'eth_sendTransaction' | 'eth_signTransaction' | 'eth_signTypedData_v4' | 'personal_sign' | 'wallet_sendCalls'
/** The methods that forget this page. */
type Revoking = 'wallet_revokePermissions' | 'wallet_disconnect'

describe('RPC ports', () => {
  it('the registry can hand every handler the whole context', () => {
    type Accepts = { [M in FrameMethod]: RequestContext extends MethodPorts[M] ? true : M }[FrameMethod]
    expectTypeOf<Accepts>().toEqualTypeOf<true>()
  })

  it('only the signing methods (and the sign-in of wallet_connect) can queue a confirmation, and only a revoke can reject the queue', () => {
    expectTypeOf<ReachingQueue<'request'>>().toEqualTypeOf<Signing | 'wallet_connect'>()
    expectTypeOf<ReachingQueue<'rejectAll'>>().toEqualTypeOf<Revoking>()
    // The user's own answers (Confirm, Reject) are the modal's, never a handler's.
    expectTypeOf<ReachingQueue<'confirm' | 'reject'>>().toEqualTypeOf<never>()
  })

  it('only the chain methods can switch chains, and no handler reaches the service client', () => {
    expectTypeOf<ReachingWallet<'switchChain'>>().toEqualTypeOf<'wallet_addEthereumChain' | 'wallet_switchEthereumChain'>()
    expectTypeOf<Reaching<'client'>>().toEqualTypeOf<never>()
  })

  it("only the permission methods change this page's connection, and only the signing ones and capabilities and estimates reach the account", () => {
    expectTypeOf<ReachingWallet<'requestAccounts'>>().toEqualTypeOf<'eth_requestAccounts' | 'wallet_requestPermissions' | 'wallet_connect'>()
    expectTypeOf<ReachingWallet<'setSite' | 'disconnect' | 'host'>>().toEqualTypeOf<Revoking>()
    // Who signs is asked only by the signing ones, checked by the registry; the account itself only by capabilities and estimates.
    expectTypeOf<Reaching<'signer'>>().toEqualTypeOf<Signing | 'wallet_connect'>()
    expectTypeOf<Reaching<'account'>>().toEqualTypeOf<'wallet_getCapabilities' | 'eth_estimateGas'>()
    // Commands no handler has any business with: the modal's pages, the sign-in, the queue's state.
    expectTypeOf<ReachingWallet<'open' | 'navigate' | 'loggedIn' | 'showSmartAccount' | 'claimConfirmationState' | 'setWallets'>>().toEqualTypeOf<never>()
  })

  it("each handler is typed with its method's ports", () => {
    expectTypeOf<Port<typeof eth_chainId>>().toEqualTypeOf<MethodPorts['eth_chainId']>()
    expectTypeOf<Port<typeof eth_accounts>>().toEqualTypeOf<MethodPorts['eth_accounts']>()
    expectTypeOf<Port<typeof wallet_getPermissions>>().toEqualTypeOf<MethodPorts['wallet_getPermissions']>()
    expectTypeOf<Port<typeof wallet_getCallsStatus>>().toEqualTypeOf<MethodPorts['wallet_getCallsStatus']>()
    expectTypeOf<Port<typeof personal_sign>>().toEqualTypeOf<MethodPorts['personal_sign']>()
    expectTypeOf<Port<typeof eth_sendTransaction>>().toEqualTypeOf<MethodPorts['eth_sendTransaction']>()
    expectTypeOf<Port<typeof wallet_sendCalls>>().toEqualTypeOf<MethodPorts['wallet_sendCalls']>()
    expectTypeOf<Port<typeof eth_signTypedData_v4>>().toEqualTypeOf<MethodPorts['eth_signTypedData_v4']>()
    expectTypeOf<Port<typeof wallet_switchEthereumChain>>().toEqualTypeOf<MethodPorts['wallet_switchEthereumChain']>()
    expectTypeOf<Port<typeof wallet_revokePermissions>>().toEqualTypeOf<MethodPorts['wallet_revokePermissions']>()
    expectTypeOf<Port<typeof wallet_connect>>().toEqualTypeOf<MethodPorts['wallet_connect']>()
    expectTypeOf<Port<typeof wallet_disconnect>>().toEqualTypeOf<MethodPorts['wallet_disconnect']>()
    expectTypeOf<Port<typeof forwardRead>>().toHaveProperty('rpc')
    expectTypeOf<Port<typeof forwardRead>['wallet']>().toHaveProperty('chainId')
  })

  it('a read handler reaches no queue, no account and no command', () => {
    expectTypeOf<Port<typeof eth_chainId>>().not.toHaveProperty('confirmations')
    expectTypeOf<Port<typeof eth_chainId>>().not.toHaveProperty('account')
    expectTypeOf<Port<typeof eth_chainId>['wallet']>().not.toHaveProperty('switchChain')
    expectTypeOf<Port<typeof eth_accounts>['wallet']>().not.toHaveProperty('setSite')
    expectTypeOf<Port<typeof wallet_getPermissions>['wallet']>().not.toHaveProperty('requestAccounts')
    expectTypeOf<Port<typeof forwardRead>>().not.toHaveProperty('confirmations')
    expectTypeOf<Port<typeof forwardRead>['wallet']>().not.toHaveProperty('switchChain')
    expectTypeOf<Port<typeof wallet_getCallsStatus>>().not.toHaveProperty('wallet')
  })

  it('a signing handler cannot switch chains or touch the session', () => {
    expectTypeOf<Port<typeof personal_sign>>().not.toHaveProperty('wallet')
    expectTypeOf<Port<typeof personal_sign>>().not.toHaveProperty('rpc')
    expectTypeOf<Port<typeof eth_sendTransaction>>().not.toHaveProperty('wallet')
    expectTypeOf<Port<typeof wallet_sendCalls>>().not.toHaveProperty('wallet')
    expectTypeOf<Port<typeof eth_signTypedData_v4>['wallet']>().not.toHaveProperty('switchChain')
    expectTypeOf<Port<typeof eth_signTypedData_v4>['wallet']>().not.toHaveProperty('setSite')
    expectTypeOf<Port<typeof personal_sign>>().not.toHaveProperty('account')
  })

  it('a chain switch asks no confirmation, a revoke queues none, and a sign-in cannot switch chains or forget the site', () => {
    expectTypeOf<Port<typeof wallet_connect>['wallet']>().not.toHaveProperty('switchChain')
    expectTypeOf<Port<typeof wallet_connect>['wallet']>().not.toHaveProperty('setSite')
    expectTypeOf<Port<typeof wallet_disconnect>['confirmations']>().not.toHaveProperty('request')
    expectTypeOf<Port<typeof wallet_switchEthereumChain>>().not.toHaveProperty('confirmations')
    expectTypeOf<Port<typeof wallet_switchEthereumChain>['wallet']>().not.toHaveProperty('setSite')
    expectTypeOf<Port<typeof wallet_revokePermissions>['confirmations']>().not.toHaveProperty('request')
    expectTypeOf<Port<typeof wallet_revokePermissions>['wallet']>().not.toHaveProperty('switchChain')
    expectTypeOf<Port<typeof wallet_revokePermissions>['wallet']['host']>().not.toHaveProperty('openUrl')
  })
})
