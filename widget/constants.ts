/**
 * The widget's timings and limits, in one place: the OTP's length, the resend waits (seconds), how
 * long an error line and the 'Copied to clipboard' notice stay, the post-login delays, the recovery
 * file's name, the e-mail pattern, the narrow-screen width (px) and the confirmation's close delay.
 */
export const otpLength = 6
export const resendWaitSeconds = { email: 30, whatsapp: 300, afterResend: 300 } as const
export const errorDisplayMs = 3000
export const copiedNoticeMs = 3000
export const postLoginDelayMs = { social: 200, otp: 500 } as const
export const recoveryFileName = 'wallet-recovery-secret.walletkit'
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const narrowScreenPx = 480
export const confirmCloseDelayMs = 500
/** The Confirm button waits this long after the frame is seen visible and unobscured (clickjacking). */
export const visibleSettleMs = 500
/** How long IntersectionObserver v2 must report the frame covered before the secure window is offered. */
export const obscuredGraceMs = 1000
/** The secure window (a popup on the provider origin): its size, and how long it has to say hello. */
export const secureWindowSize = { width: 400, height: 600 }
export const secureWindowHelloMs = 4000
/** Without a window handle (the host sent COOP), how long the secure window may go unseen before it counts as closed. */
export const secureWindowGoneMs = 3000
/** A phone number: digits only, first digit 1-9, 2 to 15 digits, no plus sign. */
export const phonePattern = /^[1-9]\d{1,14}$/
/**
 * Requests one page may have waiting for confirmation at once (the one shown included). More would
 * only bury the user under prompts; further ones are refused at once (-32005, confirmation.ts).
 */
export const maxPendingConfirmations = 10
/** A message longer than this shows its start, says how much is left out, and offers to show it all. */
export const messagePreviewChars = 1000
/** Disconnect waits this long for the service to revoke the session, then ends it here regardless. */
export const logoutTimeoutMs = 5000
/** WalletConnect: a pairing URI (and its QR) is replaced after 5 minutes, when the relay forgets the proposal. */
export const pairingExpiryMs = 5 * 60_000
/** A failed WalletConnect connection's 'Failed to connect, please refresh the page and try again.' shows this long. */
export const walletConnectErrorMs = 5000
/** How long the frame's start waits for a stored WalletConnect session before answering without it. */
export const walletConnectRestoreMs = 4000
