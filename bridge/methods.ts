import type { RpcError } from './error-classes.ts'

/** What every bridge method answers: `{ result }` or `{ error }`, never both (JSON-RPC 2.0), never a throw (serve.ts). */
export type Ok<T> = { result: T }
export type Fail = { error: RpcError }
export type Result<T = unknown> = Ok<T> | Fail

/** The modals a page can open: the connect home, the chain list, the profile, a confirmation, the signing permission. */
export const views = ['connect', 'chain', 'profile', 'transaction_confirmation', 'need_permission'] as const
export type View = (typeof views)[number]

/** EIP-1193 provider events the widget forwards to the host page. */
export const hostEvents = ['connect', 'disconnect', 'chainChanged', 'accountsChanged', 'message'] as const
export type HostEvent = (typeof hostEvents)[number]

export type RpcRequest = { readonly method: string; readonly params?: readonly unknown[] | Record<string, unknown> }

export type Hello = { readonly protocol: number; readonly sdkVersion?: string }

/** A wallet the user may pick in the connect modal. Injected wallets are discovered in the host page (EIP-6963). */
export type WalletDescriptor = {
  readonly id: string
  readonly name: string
  /** A data: or https: URI. */
  readonly icon: string
  readonly connector: 'injected' | 'walletconnect'
  readonly installed: boolean
  readonly rdns?: string
}

/** What an external wallet answered when the host connected to it in the top frame. */
export type ExternalConnection = { readonly accounts: readonly string[]; readonly chainId: string }

/** Where the host should open a URL the widget cannot open well itself (deep links must be top-level). */
export type OpenTarget = '_blank' | '_top'
/**
 * The frame's answer to hello: its protocol version, and the chain ids this page is offered (the
 * app's, narrowed to those the page named), so that the host can judge a chain switch for a
 * browser wallet without asking the frame each time.
 */
export type Welcome = { readonly protocol: number; readonly chains: readonly number[] }

/** A short-lived JWT for the host's own back end (it checks it against the provider's JWKS), and when it expires (ISO 8601). */
export type IdentityToken = { readonly identityToken: string; readonly expiresAt: string }

/**
 * The frame's answer to connectAnswer: ERC-7846 wallet_connect's answer, and with a sign-in the
 * params of the personal_sign that signs its message (hex bytes, address); the host puts the
 * signature into the answer.
 */
export type ConnectAnswer = readonly [
  answer: {
    readonly accounts: readonly { readonly address: string; readonly capabilities: { signInWithEthereum?: { message: string; signature?: unknown } } }[]
  },
  sign?: readonly [data: `0x${string}`, address: string],
]

/** What the widget (iframe, provider origin) exposes to the host page. */
export type WidgetMethods = {
  hello(hello: Hello): Promise<Result<Welcome>>
  request(request: RpcRequest): Promise<Result<unknown>>
  open(view: View): Promise<Result<null>>
  close(): Promise<Result<null>>
  /**
   * kit.disconnect(): ends the session, from a page the user connected (from any other page it
   * changes nothing). wallet_revokePermissions, through request, forgets only the asking page.
   */
  disconnect(): Promise<Result<null>>
  /** The injected wallets the host page discovered (sent again whenever one more announces). */
  setWallets(wallets: readonly WalletDescriptor[]): Promise<Result<null>>
  /**
   * kit.getIdentityToken(): the frame asks the provider, with its session, for an identity token
   * naming the signed-in user, for a page the user connected only (4100 otherwise). The nonce, when
   * given, is the page's own (its server checks it) and is signed into the token.
   */
  identityToken(nonce: string | undefined): Promise<Result<IdentityToken>>
  /**
   * ERC-7846 wallet_connect for a browser wallet that does not know it: the host sends the request's
   * params (as the page sent them) and the wallet's accounts; the frame reads them as it reads its
   * own wallet_connect and answers, with signInWithEthereum writing the message for the page's
   * verified site only (-32602 otherwise) and saying what the wallet's personal_sign is to sign.
   */
  connectAnswer(params: RpcRequest['params'], accounts: readonly `0x${string}`[]): Promise<Result<ConnectAnswer>>
}

/** What the host page exposes to the widget. */
export type HostMethods = {
  setVisible(visible: boolean): Promise<Result<null>>
  emit(event: HostEvent, payload: unknown): Promise<Result<null>>
  /** The user picked an injected wallet: the host connects to it in the top frame and routes the provider to it. */
  connectExternal(walletId: string): Promise<Result<ExternalConnection>>
  /** Opens an http(s) URL or a wallet deep link from the top frame. */
  openUrl(url: string, target: OpenTarget): Promise<Result<null>>
}
