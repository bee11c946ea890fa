import type { SmartAccountUse } from './session.ts'
import type { PublicSession } from './session-owner.ts'
import type { View, WalletDescriptor } from '../bridge/index.ts'
import type { FeeSummary } from './rpc/fee-summary.ts'
import type { ReadStore } from './store.ts'

/**
 * The pages of each modal: one table for the modal's navigation (modal-control.ts), the modals'
 * route tables and the tests. Every modal starts on `home`; the back stack is shared (`page`,
 * `history`, `direction` below): back pops it, an empty history goes home, and 50 ms after a modal
 * closes its pages reset to home.
 */
export const pages = {
  connect: ['home', 'wallet', 'qr-code', 'whatsapp', 'otp', 'wallet-created'],
  profile: [
    'home',
    'receive',
    'chain',
    'onramp',
    'select-currency',
    'select-crypto',
    'smart-account',
    'calls-status',
    'recovery',
    'export-key',
    'passkeys',
    'security',
  ],
  chain: ['home'],
  transaction_confirmation: ['home'],
  need_permission: ['home'],
} as const satisfies Record<View, readonly ['home', ...string[]]>

export type PageOf<V extends View> = (typeof pages)[V][number]
export type ConnectPage = PageOf<'connect'>
export type ProfilePage = PageOf<'profile'>
export type Page = PageOf<View>

export type UiState = {
  view: View | null
  /** The page of the open modal, and the back stack under it (modal-control.ts moves them). */
  page: Page
  history: readonly Page[]
  direction: 'forward' | 'back'
  /** Where the one-time code went, for the OTP page. */
  otpTarget: { channel: 'email' | 'whatsapp'; to: string; verificationToken: string } | null
  /** Shown once on the wallet-created page; dropped when the modal closes. */
  secret0: string | null
  /**
   * Who is connected: the embedded wallet's session (public fields only, the tokens stay in
   * session-owner.ts), or a wallet paired over WalletConnect (`walletConnect` set). `smartAccount`:
   * the embedded wallet's smart account is the one the host sees (`address` stays its owner).
   */
  session: { address: `0x${string}`; walletConnect?: { peer: string }; smartAccount?: SmartAccountUse } | null
  /**
   * The user connected this page (its origin) to the session: only then does the host see the
   * account or may it ask for signatures; otherwise the connect modal asks first (connection.ts).
   */
  connected: boolean
  /** Injected wallets the host page discovered. */
  wallets: readonly WalletDescriptor[]
  /** The current chain (the session's when logged in). */
  chainId: number
  /** The wallet picked for WalletConnect ('Scan QR Code'): a mobile wallet's id, 'sandbox', or null for any wallet. */
  pairingWallet: string | null
  /** The wallet whose restored WalletConnect session lacked some of the app's chains: the QR page asks to pair it again. */
  reconnect: string | null
  /** Set while an injected wallet in the host page is the connected account. */
  external: { walletId: string; address: `0x${string}` } | null
  /** The signature or transaction waiting for the user (transaction_confirmation modal). */
  /** What wallet_showCallsStatus asked the profile's 'calls-status' page to show. */
  callsStatus: CallsStatusView | null
  confirmation: Confirmation | null
  /** Requests waiting behind the one shown (or being prepared while none is shown). */
  queued: number
  /** Whether the wallet may sign (a 407 says no, with the page where permission is granted), kept under the key `account`. */
  account: AccountState
}

export type AccountState = { isPermissionGranted: boolean; acceptPermissionPage: string | null }

export type ConfirmationKind = 'message' | 'typed-data' | 'transaction'

/** A request as the confirmation modal shows it to the user. */
export type ConfirmationPayload = {
  from: string
  to?: string
  value?: string
  data?: string
  nonce?: number
  gasPrice?: string
  chainId: number
  message?: string
  /** Every fee figure of a transaction, as signed (rpc/fees.ts). */
  fee?: FeeSummary
  /** The app's gas tank pays (a smart account): no fee for the user. */
  sponsored?: boolean
  /** A batch run as one operation (EIP-5792 on a smart account): every call, value in ether. */
  calls?: readonly { to: string; value: string; data?: string }[]
}

/** The batch wallet_showCallsStatus shows (EIP-5792): its status code and transaction, as read when asked. */
export type CallsStatusView = { id: string; chainId: number; status: number; atomic: boolean; transactionHash?: string }

export type Confirmation = {
  id: number
  kind: ConfirmationKind
  payload: ConfirmationPayload
  /** 'wallet': the account's own device is asking the user (WalletConnect). */
  status: 'idle' | 'wallet' | 'loading' | 'success' | 'error'
  /** The account's own device confirms (WalletConnect): no Confirm in the frame. */
  onDevice?: boolean
  error: string | null
  /** In the secure window's copy only: the frame on the page asks the user a second factor for it. */
  askingStepUp?: true
}

/**
 * Who writes which part of the state: each part has one owner, which alone holds its writer
 * (store.ts `slice`); everyone else reads the whole through `wallet.ui` and asks the owner.
 * - the modal (modal-control.ts): which modal, its page and what that page shows;
 * - the connection (connection.ts): who is connected and the account's permission state;
 * - the active chain (active-chain.ts);
 * - the confirmations (confirmation.ts): the request on screen and how many wait;
 * - the host's wallets (wallet.ts): the injected wallets the page announced.
 */
type Owner = 'modal' | 'connection' | 'chain' | 'confirmations' | 'hostWallets'

/** Each field's one owner: a field without one, or with two, does not compile. */
const owners = {
  view: 'modal',
  page: 'modal',
  history: 'modal',
  direction: 'modal',
  otpTarget: 'modal',
  secret0: 'modal',
  pairingWallet: 'modal',
  reconnect: 'modal',
  callsStatus: 'modal',
  session: 'connection',
  connected: 'connection',
  external: 'connection',
  account: 'connection',
  chainId: 'chain',
  confirmation: 'confirmations',
  queued: 'confirmations',
  wallets: 'hostWallets',
} as const satisfies Record<keyof UiState, Owner>

/** The fields `owner` writes. */
export type KeysOf<O extends Owner> = { [K in keyof UiState]: (typeof owners)[K] extends O ? K : never }[keyof UiState]
export type ModalKey = KeysOf<'modal'>
export type ConnectionKey = KeysOf<'connection'>
export type ConfirmationKey = KeysOf<'confirmations'>

export const keysOf = <O extends Owner>(owner: O): KeysOf<O>[] =>
  (Object.keys(owners) as (keyof UiState)[]).filter((key): key is KeysOf<O> => owners[key] === owner)

/** Whether a request waits for the user (its confirmation on screen): background work holds meanwhile (lazy-module.ts). */
export const waitsForUser = (ui: ReadStore<UiState>) => () => !!ui.get().confirmation

/** The public part of a stored session the UI keeps. */
export const uiSession = (session: PublicSession): NonNullable<UiState['session']> => ({
  address: session.address,
  ...(session.smartAccount && { smartAccount: session.smartAccount }),
})

export const initialUi: UiState = {
  view: null,
  page: 'home',
  history: [],
  direction: 'forward',
  otpTarget: null,
  secret0: null,
  session: null,
  connected: false,
  wallets: [],
  chainId: 0,
  pairingWallet: null,
  reconnect: null,
  external: null,
  confirmation: null,
  callsStatus: null,
  queued: 0,
  account: { isPermissionGranted: true, acceptPermissionPage: null },
}
