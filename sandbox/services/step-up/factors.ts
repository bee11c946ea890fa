import type { App } from '../app-config/apps.ts'
import type { Deps } from '../../context.ts'
import { requiredString, type JsonObject } from '../../http/exchange.ts'
import { deliver } from '../../emulators/inbox/queries.ts'
import { createOtp, otpPolicy, verifyOtp } from '../auth/otp.ts'
import { passkeyPolicy } from '../passkeys/ceremonies.ts'
import { stepUpPasskeyOptions, verifyStepUpPasskey } from '../passkeys/step-up-ceremony.ts'

// The second factors a step-up can ask for. Each starts a check for a user (send a code, hand out a
// WebAuthn challenge) and later judges the client's answer. What a factor must remember between the
// two is its `state`: the service keeps it sealed in the challenge row and never shows it to the
// client. A passkey assertion is asked first; an e-mail code where the user has no passkey (or the
// client cannot run a passkey ceremony).

/** The user a step-up is for, as the factors see them (`hasPasskey` unknown reads as none). */
export type StepUpUser = { userId: string; email: string | null; hasPasskey?: boolean }

export type FactorStart = {
  /** Kept sealed by the service until the answer comes; never sent to the client. */
  state: string
  /** What the client is told to show ("a code was sent to j•••@example.com", the WebAuthn options). */
  hint: Record<string, unknown>
}

export type StepUpFactor = {
  readonly name: 'passkey' | 'email'
  /** How long its challenge can be answered. */
  readonly lifetimeMs: number
  /** The body fields (beside `challengeId`) that carry the client's answer. */
  readonly answerFields: readonly string[]
  /** Whether this user can be asked by this factor (an e-mail code needs an e-mail address). */
  available(user: StepUpUser): boolean
  /** `what` names the action in words for the user; `requester` is whom its codes and wrong answers are counted for (the session). */
  start(deps: Deps, app: App, user: StepUpUser, what: string, requester: string): Promise<FactorStart>
  /** Judges the answer against the kept state; throws the HttpError to answer when it is wrong. */
  verify(deps: Deps, app: App, state: string, answer: JsonObject): Promise<void>
}

/** What step-up codes are counted under in the login codes' tables (never an address a login can name). */
const codeKey = (email: string) => `${email} (step-up)`

/** j•••@example.com: enough for the user to know which inbox to open. */
export const maskEmail = (email: string) => {
  const at = email.lastIndexOf('@')
  return at < 1 ? '•••' : `${email[0]}•••${email.slice(at)}`
}

/**
 * A 6-digit code to the user's e-mail address, made and checked by the login codes' own rules
 * (auth/otp.ts: 5 minutes, 5 tries a code, the wrong-code budget per address and client, the codes
 * per address and window). The code's verification token is the state: the client only ever holds
 * the challenge id, so a step-up code cannot be spent as a login, nor a login code as a step-up.
 * Its codes are counted under their own key (the address and ` (step-up)`, which no login can name: an address holds no space), so a pending step-up
 * neither holds up nor replaces a login code of the same address, nor a login the step-up's.
 */
export const emailFactor: StepUpFactor = {
  name: 'email',
  lifetimeMs: otpPolicy.lifetimeMs,
  answerFields: ['code'],
  available: (user) => !!user.email,
  async start(deps, app, user, what, requester) {
    const email = user.email
    if (!email) throw new Error('emailFactor.start without an e-mail address')
    const { verificationToken, code } = await createOtp(deps.store, app, 'email', codeKey(email), requester)
    const minutes = otpPolicy.lifetimeMs / 60_000
    await deliver(deps.store, {
      appId: app.appId,
      to: email,
      channel: 'email',
      subject: `Your ${app.name} confirmation code`,
      text: `Your ${app.name} code to ${what} is ${code}. It expires in ${minutes} minutes. If you did not ask for it, do not share it: someone may be using your session.`,
      code,
    })
    return { state: verificationToken, hint: { sentTo: maskEmail(email) } }
  },
  async verify(deps, app, state, answer) {
    await verifyOtp(deps.store, app, 'email', state, requiredString(answer, 'code', 64))
  },
}

/**
 * An assertion by one of the user's passkeys, user verified, over a challenge stored for them with
 * the purpose `step-up` (passkeys/step-up-ceremony.ts). The state is that challenge: the client gets
 * it in the options too, but only this step-up's answer can name it.
 */
export const passkeyFactor: StepUpFactor = {
  name: 'passkey',
  lifetimeMs: passkeyPolicy.challengeSeconds * 1000,
  answerFields: ['credential'],
  available: (user) => user.hasPasskey === true,
  async start(deps, app, user) {
    const options = await stepUpPasskeyOptions(deps, app, user.userId)
    return { state: JSON.stringify({ userId: user.userId, challenge: options.challenge }), hint: { options } }
  },
  async verify(deps, app, state, answer) {
    const { userId, challenge } = JSON.parse(state) as { userId: string; challenge: string }
    await verifyStepUpPasskey(deps, app, userId, challenge, answer)
  },
}

/** The factors in the order they are offered: the first one the user and the client can both use is asked. */
export const stepUpFactors: readonly StepUpFactor[] = [passkeyFactor, emailFactor]
