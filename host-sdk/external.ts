import { ProviderRpcError, toProviderError, type RpcError } from '../bridge/error-classes.ts'
import {
  chainNotOffered,
  isChainOffered,
  parseRequest,
  type ExternalConnection,
  type HostEvent,
  type Quantity,
  type RpcRequest,
  type WalletDescriptor,
} from '../bridge/index.ts'
import type { ConnectAnswer } from '../bridge/methods.ts'
import { discover, svgIcon, type ProviderDetail } from './eip6963.ts'
import { disconnected, type EIP1193Provider } from './provider.ts'

/**
 * The browser wallets of the host page: the ones it finds (`watchWallets`, listed in the wallet
 * frame's connect modal) and the one the user picked there (`createExternal`), which the kit's
 * provider then forwards to.
 */

/**
 * Browser wallets inject into the host page, never into the cross-origin wallet frame, so the
 * host finds them (EIP-6963, else a legacy window.ethereum) and tells the widget what it found.
 */
export type Wallets = {
  /** What the widget's wallet list shows. */
  descriptors(): WalletDescriptor[]
  find(id: string): ProviderDetail | undefined
  stop(): void
}

const genericIcon = svgIcon('5f6675')

const idOf = ({ info }: ProviderDetail) => info.rdns || info.uuid

/** A legacy injected provider, used only when nothing announces itself. */
function legacy(own: EIP1193Provider): ProviderDetail | undefined {
  const ethereum = (window as { ethereum?: EIP1193Provider }).ethereum
  if (typeof ethereum?.request !== 'function' || ethereum === own) return undefined
  return { info: { uuid: 'injected', name: 'Browser Wallet', icon: genericIcon, rdns: 'injected' }, provider: ethereum }
}

export function watchWallets(own: EIP1193Provider, changed: () => void): Wallets {
  const found = new Map<string, ProviderDetail>()
  // Wallets already in the page answer discover() at once, before the caller holds the result:
  // those are the first list it reads itself, so only later arrivals report a change.
  let started = false
  const stop = discover((detail) => {
    if (detail.provider === own || found.get(idOf(detail))?.provider === detail.provider) return
    found.set(idOf(detail), detail)
    if (started) changed()
  })
  started = true
  const all = () => {
    if (found.size > 0) return [...found.values()]
    const fallback = legacy(own)
    return fallback ? [fallback] : []
  }
  return {
    descriptors: () =>
      all().map((detail) => {
        const { name, icon, rdns } = detail.info
        return {
          id: idOf(detail),
          name: name.slice(0, 100) || 'Wallet',
          // EIP-6963 icons are data URIs, and the frame's CSP loads no image from other servers.
          icon: /^data:image\//.test(icon) && icon.length <= 100_000 ? icon : genericIcon,
          connector: 'injected',
          installed: true,
          rdns: typeof rdns === 'string' ? rdns : undefined,
        }
      }),
    find: (id) => all().find((detail) => idOf(detail) === id),
    stop,
  }
}

/**
 * The browser wallet the user picked in the modal. Connected in the top frame (the only place it
 * exists); from then on the kit's provider forwards every request and event to it until disconnect.
 */
export type External = {
  /**
   * The browser wallet requests are routed to, while one is connected. A field, not a getter: the
   * kit reads it on every request, and an embedded wallet's request runs nothing of this module.
   */
  readonly wallet?: ProviderDetail | undefined
  connect(wallet: ProviderDetail): Promise<ExternalConnection>
  /**
   * Throws what the wallet frame would answer for a request it must not get: 4200 and -32602 by
   * the method table, 4902 for a chain switch or an EIP-5792 batch on a chain this page is not
   * offered (`offered`, from the frame's welcome; the page may name no chains of its own, and a
   * browser wallet must still not be moved to a chain the app does not offer).
   */
  check(request: RpcRequest, offered: readonly number[]): void
  request(args: RpcRequest): Promise<unknown>
  /** Stops routing to the wallet; tells the page's listeners it disconnected. */
  end(): void
}

type Listener = (payload: unknown) => void
const gone = disconnected('Disconnected from the browser wallet')
const forwarded = ['accountsChanged', 'chainChanged', 'disconnect', 'message'] as const

/**
 * `connectAnswer` asks the wallet frame for wallet_connect's answer for a browser wallet that does not
 * know it (bridge method connectAnswer): from the request's params and the wallet's accounts, the
 * answer, and with a sign-in what the wallet's personal_sign signs (the message's bytes, the address).
 */
export function createExternal(
  emit: (event: HostEvent, payload: unknown) => void,
  ended: () => void,
  connectAnswer: (params: RpcRequest['params'], accounts: readonly `0x${string}`[]) => Promise<ConnectAnswer>,
): External {
  let unsubscribe = () => {}

  const end = () => {
    if (!external.wallet) return
    external.wallet = undefined
    unsubscribe()
    emit('accountsChanged', [])
    emit('disconnect', gone)
    ended()
  }

  const external: { -readonly [key in keyof External]: External[key] } = {
    async connect(chosen) {
      const { provider } = chosen
      const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[]
      const chainId = (await provider.request({ method: 'eth_chainId' })) as string
      end()
      external.wallet = chosen
      const listeners = forwarded.map((event): [string, Listener] => [
        event,
        (payload) => {
          if (chosen !== external.wallet) return
          // A wallet that drops every account (or disconnects) has ended the connection.
          if (event === 'disconnect' || (event === 'accountsChanged' && !(payload as unknown[])?.length)) end()
          else emit(event, payload)
        },
      ])
      for (const [event, fn] of listeners) provider.on(event, fn as never)
      unsubscribe = () => {
        for (const [event, fn] of listeners) provider.removeListener(event, fn as never)
      }
      emit('chainChanged', chainId)
      emit('connect', { chainId })
      emit('accountsChanged', accounts)
      return { accounts, chainId }
    },
    check(request, offered) {
      const { method, kind, params } = parseRequest(request, (code, message) => new ProviderRpcError(code, message))
      // The chain a request moves the wallet to, or runs on: a switch's, and an EIP-5792 batch's
      // (a wallet sends it there without a switch). The table made it a hex number below 2^52.
      const named = kind === 'chain' || method === 'wallet_sendCalls' ? (params as readonly [{ chainId?: Quantity | null }])[0].chainId : undefined
      if (named == null) return
      const chainId = Number(named)
      if (!isChainOffered(chainId, offered)) throw toProviderError(chainNotOffered(chainId))
    },
    /**
     * While a wallet is connected; one that went away meanwhile is 4900. ERC-7846 wallet_disconnect ends the
     * connection here, as revoking eth_accounts does. wallet_connect goes to the wallet first (one
     * that knows it writes and checks its own sign-in); for one that does not (4200, -32601) the
     * frame writes the answer from the wallet's accounts, and for signInWithEthereum the message (it
     * alone knows this page's verified site: another site, chain or a used nonce is -32602, before
     * the wallet is asked to sign), which the wallet signs with its own personal_sign: the user's
     * one confirmation, in the wallet.
     */
    async request(args) {
      const provider = external.wallet?.provider
      if (!provider) throw toProviderError(gone)
      if (args.method === 'wallet_disconnect') {
        end()
        return null
      }
      try {
        return await provider.request(args)
      } catch (e) {
        // A wallet may throw anything (null too): only its 4200 or -32601 is read.
        if (args.method !== 'wallet_connect' || ![4200, -32601].includes((e as RpcError)?.code)) throw e
      }
      const [answer, sign] = await connectAnswer(args.params, (await provider.request({ method: 'eth_accounts' })) as `0x${string}`[])
      if (sign) answer.accounts[0]!.capabilities.signInWithEthereum!.signature = await provider.request({ method: 'personal_sign', params: sign })
      return answer
    },
    end,
  }
  return external
}
