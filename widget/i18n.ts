import { useWidget } from './context.ts'

/** The English strings are the product's wording, kept word for word (i18n.test.ts); Indonesian follows them. */
const en = {
  username: 'Username',
  password: 'Password',
  signingIn: 'Signing in…',
  /** The username or the password is empty. */
  credentialsRequired: 'Please enter your username and password',
  signInUnavailable: (provider: string) => `${provider} sign-in could not load. Check your connection and try again.`,
  popupBlocked: 'The sign-in window was blocked. Allow pop-ups for this site and try again.',
  viewOn: (explorer: string) => `View on ${explorer}`,
  chainUnreachable: (chain: string) => `${chain} cannot be reached right now. Try again later.`,
  loginTitle: 'Login or Sign Up',
  loginSubtitle: 'Your gateway to the decentralized world. Simple, Powerful, Yours.',
  emailPlaceholder: 'Enter your email',
  /** The e-mail field's name (its label is for assistive tech). */
  emailLabel: 'Email',
  continue: 'Continue',
  sending: 'Sending…',
  or: 'OR',
  moreOptions: 'More Options',
  invalidEmail: 'Invalid email',
  invalidPhone: 'Invalid phone number',
  walletsTitle: 'Select Your Log In Method',
  noWallets: 'No wallet was found in this browser.',
  installed: 'Installed',
  /** Above the wallets the host page announced: the modal vouches for none of them. */
  fromThisSite: 'From this site',
  connectionRejected: 'Connection rejected in the wallet',
  qrTitle: 'Scan QR Code',
  qrHint: (wallet: string) => `Scan with ${wallet} on your phone, or with any WalletConnect wallet.`,
  qrPreparing: 'Preparing the QR code…',
  openInBrowser: 'Open in Browser',
  openApp: (wallet: string) => `Open ${wallet}`,
  copyLink: 'Copy link',
  mobileWallets: 'Mobile wallets',
  /** WalletConnect: an approval with no account on the app's chains; then any other failed connection (shown 5 s). */
  noChainsOnConnector: 'No chains found on connector.',
  failedToConnect: 'Failed to connect, please refresh the page and try again.',
  confirmInWallet: 'Confirm in your wallet',
  whatsappTitle: 'Whatsapp Login',
  whatsappHint: 'Enter your WhatsApp number with the country code, without the plus sign.',
  signIn: 'Sign In',
  otpTitle: 'OTP Verification',
  otpSentTo: 'Enter the 6-digit code we sent to',
  onWhatsapp: 'on WhatsApp',
  otpLength: 'Enter the 6-digit code',
  noCode: "Didn't get a code?",
  resend: 'Resend',
  resendIn: (s: number) => `Resend in ${s}s`,
  confirm: 'Confirm',
  verifying: 'Verifying…',
  createdTitle: 'Wallet Created Successfully!',
  createdText: 'is ready. Save your recovery secret somewhere safe: it is shown only once and restores your wallet if you lose access.',
  yourWallet: 'Your wallet',
  copy: 'Copy',
  download: 'Download',
  copied: 'Copied to clipboard',
  copyFailed: 'Copy failed',
  done: 'Done',
  signMessage: 'Sign Message',
  confirmTransaction: 'Confirm Transaction',
  reject: 'Reject',
  close: 'Close',
  tryAgain: 'Try Again',
  confirming: 'Confirming…',
  from: 'From',
  network: 'Network',
  to: 'To',
  amount: 'Amount',
  nonce: 'Nonce',
  gasPrice: 'Gas price',
  // The confirmation: who asks, what it costs, how a message is shown, many requests at once.
  requestFrom: 'Request from',
  networkFee: 'Network fee (max)',
  gas: 'Gas',
  gasTimesPrice: (gas: string, perGas: string) => `${gas} × ${perGas}`,
  priorityFee: 'Priority fee',
  totalMax: 'Total (max)',
  gasFee: 'Gas fee',
  sponsoredByApp: 'Paid by the app (sponsored)',
  callNumber: (n: number) => `Call ${n}`,
  withData: '+ data',
  callsStatus: 'Transaction Status',
  callsPending: 'Pending',
  callsConfirmed: 'Confirmed',
  callsFailed: 'Failed',
  callsReverted: 'Reverted',
  callsPartial: 'Partly confirmed',
  callsAtomic: 'All calls in one operation',
  messageText: 'Text',
  messageBytes: 'Bytes (hex)',
  messageBytesOf: 'Its bytes',
  clipped: (shown: number, total: number) => `Showing the first ${shown} of ${total} characters.`,
  showAll: 'Show all',
  rejectAll: 'Reject all',
  moreWaiting: (n: number) => (n === 1 ? '1 more request is waiting' : `${n} more requests are waiting`),
  permissionTitle: 'Permission needed',
  permissionText: 'This wallet has not been given permission to sign yet. Set it up once, then try again.',
  setupPermission: 'Setup Permission',
  switchChain: 'Switch Chain',
  personalWallet: 'Personal Wallet',
  receive: 'Receive',
  copyAddress: 'Copy address',
  disconnect: 'Disconnect Wallet',
  notConnected: 'Not connected.',
  poweredBy: 'Powered by',
  back: 'Back',
  continueWith: (name: string) => `Continue with ${name}`,
  buy: 'Buy',
  youPay: 'You pay',
  youReceive: 'You receive',
  selectCurrency: 'Select currency',
  selectCrypto: 'Select crypto',
  rate: 'Rate',
  fee: 'Fee',
  somethingWrong: 'Something went wrong',
  // The smart wallet's page and its account statuses: one account per chain of the app.
  smartWallet: 'Smart Wallet',
  notActivated: 'Not Activated',
  activate: 'Activate',
  /** The status 'deploying'. */
  activatingStatus: 'Activating',
  activated: 'Activated',
  unknownStatus: 'Unknown',
  /** The Activate button while it signs and submits. */
  activatingPending: 'Activating...',
  noSmartWallets: 'This app has no smart wallets yet.',
  useOnThisSite: 'Use on this site',
  usePersonalWallet: 'Use Personal Wallet',
  loading: 'Loading…',
  openSecureWindow: 'Open secure window',
  secureConfirmHint: 'You confirm this in a secure window of the wallet, where no page can cover, crop or restyle what you approve.',
  secureLoginHint: 'This browser does not let the wallet remember you on this site. Sign in in a secure window: next time one click is enough.',
  secureWindowOpen: 'Continue in the secure window.',
  secureWindowBlocked: 'Your browser blocked the secure window. Allow pop-ups for this site, then try again.',
  tryAgainWindow: 'Try again',
  notOpenedByWallet: 'This window works only when the wallet opens it. You can close it.',
  noApp: 'This wallet is not available for that site. You can close this window.',
  returning: 'Signed in. Returning to the site…',
  // Names for assistive tech only (aria-label, alt).
  verificationCode: 'Verification code',
  wallets: 'Wallets',
  chains: 'Chains',
  currentChain: 'Current chain',
  switching: 'Switching',
  connecting: 'Connecting',
  appLogo: 'App logo',
  qrOf: (address: string) => `QR code of ${address}`,
}

export type Messages = typeof en

export type Locale = 'en' | 'id'

/** Every locale's strings; a locale other than English is loaded with the frame that shows it (loadMessages). */
export const messages: Record<Locale, Messages> = { en, id: en }

/** Loads `locale`'s strings before the first render (the frame's first chunk carries English only); English if they fail to load. */
export async function loadMessages(locale: Locale): Promise<void> {
  if (locale !== 'id') return
  try {
    messages.id = (await import('./i18n-id.ts')).id
  } catch (err) {
    console.warn('wallet-kit: the Indonesian strings did not load, showing English:', err)
  }
}

export function useT(): Messages {
  return messages[useWidget().locale]
}
