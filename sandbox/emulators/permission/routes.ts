import { createHash } from 'node:crypto'
import { Hono, type Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { decodeJwt } from 'jose'
import type { Deps } from '../../context.ts'
import { HttpError, type JsonObject } from '../../http/exchange.ts'
import { clientIp } from '../../http/rate-limit.ts'
import { parseEnvironment, type App } from '../../services/app-config/apps.ts'
import { findApp } from '../../services/app-config/queries.ts'
import { verifyToken } from '../../services/auth/jwt.ts'
import { wrongCode } from '../../services/auth/otp.ts'
import { isFamilyRevoked } from '../../services/auth/session-queries.ts'
import { maskEmail } from '../../services/step-up/factors.ts'
import { reachableFactors, requireFreshFactor, type GatedChange } from '../../services/step-up/fresh-factor-gate.ts'
import { contactOf } from '../../services/step-up/queries.ts'
import { startStepUp, verifyStepUp, type StepUpSession } from '../../services/step-up/step-up.ts'
import { grantPermission, permissionOf } from '../../services/wallet/queries.ts'
import { fromOwnPage } from '../form-guard.ts'
import { page, pageHeaders } from '../page-view.ts'
import { askView, codeView, grantedView, invalidLinkView, passkeyScript, passkeyView, startAgainView } from './views.ts'

/**
 * The request hash a grant's step-up proof is bound to: the link's own grant id (its token's `jti`),
 * so a proof earned for another link grants nothing here (one for another user's wallet is that
 * user's, and step-up refuses it as no proof at all). Whoever holds the link can compute it.
 */
export const permissionGrantHash = (grantId: string) => `0x${createHash('sha256').update(`grant-permissions:${grantId}`).digest('hex')}`

/**
 * The account's permission-accept page: the link a 407 refusal carries (a wallet without the signing
 * permission may read, never sign or send; the kit opens this page in a new tab). Opening it shows
 * which wallet and app ask, and does nothing else (mail scanners fetch links). Granting takes a fresh
 * second factor in the session that asked, run by the page itself: confirming starts the step-up
 * (a code to the user's e-mail, or their passkey), the right answer grants. A client that ran the
 * step-up itself (auth/step-up, action `grant-permissions`, request `permissionGrantHash`) may post
 * its proof as `stepUpProof`. A user no factor can reach is granted only soon after signing in
 * (step-up/fresh-factor-gate.ts).
 */
export function permissionRoutes(deps: Deps) {
  const html = (c: Context, status: ContentfulStatusCode, title: string, body: string, script?: string) =>
    c.html(page({ title, body, ...(script ? { script } : {}) }), status, pageHeaders(script ? { script } : {}))
  return new Hono()
    .get('/accept', async (c) => {
      const token = c.req.query('token') ?? ''
      const found = await lookUp(deps, token).catch(() => undefined)
      if (!found) return html(c, 400, 'Link expired', invalidLinkView(true))
      if (found.granted) return html(c, 200, 'Permission granted', grantedView(found.address))
      return html(c, 200, 'Permission needed', askView(found.appName, found.address, token))
    })
    .post('/accept', async (c) => {
      // Only this page posts its forms (or no browser at all); another site's page is refused.
      if (!fromOwnPage(c, deps)) return html(c, 403, 'Permission needed', startAgainView('', 'Only the permission page itself may post this form.', false))
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
      const field = (name: string) => (typeof form[name] === 'string' ? form[name] : '')
      const token = field('token')
      const found = await lookUp(deps, token).catch(() => undefined)
      if (!found) return html(c, 400, 'Link expired', invalidLinkView(false))
      if (found.granted) return html(c, 200, 'Permission granted', grantedView(found.address))
      const step = (status: ContentfulStatusCode, message: string, canRetry = true) =>
        html(c, status, 'Confirm it is you', startAgainView(token, message, canRetry))
      const change: GatedChange = { action: 'grant-permissions', requestHash: found.grantHash, lateWhat: 'the permission can be granted' }
      try {
        let proof: string | undefined = field('stepUpProof') || undefined
        const challengeId = field('challengeId')
        if (challengeId) {
          deps.limiter.hit('verifiesPerIp', clientIp(c))
          const passkey = field('credential') !== ''
          try {
            const answer = passkey ? { credential: parsed(field('credential')) } : { code: field('code') }
            proof = (await verifyStepUp(deps, found.app, found.session, challengeId, answer)).stepUpProof
          } catch (error) {
            if (!(error instanceof HttpError) || error.status !== 400) throw error
            // A wrong code leaves the challenge for another try: the same form, saying so.
            if (!passkey && error.message === wrongCode) {
              const sentTo = maskEmail((await contactOf(deps.store, found.session.userId))?.email ?? '')
              return html(c, 400, 'Confirm it is you', codeView({ token, challengeId, sentTo, error: 'That code is not right. Check it and try again.' }))
            }
            return step(400, passkey ? sentence(error.message) : 'This code has expired or was already used. Start again to get a new one.')
          }
        } else if (field('code') || field('credential')) {
          return step(400, 'This answer belongs to no request. Start again.')
        } else if (!proof && (await reachableFactors(deps, found.session.userId)).length > 0) {
          deps.limiter.hit('codesPerIp', clientIp(c))
          const factors = field('factor') === 'email' ? (['email'] as const) : (['passkey', 'email'] as const)
          const started = await startStepUp(deps, found.app, found.session, 'grant-permissions', found.grantHash, [...factors])
          const ids = { token, challengeId: started.challengeId }
          // What the factor shows: `sentTo` for a code, the WebAuthn `options` for a passkey.
          const hint: Record<string, unknown> = started
          if (started.factor === 'email') return html(c, 200, 'Confirm it is you', codeView({ ...ids, sentTo: String(hint.sentTo) }))
          const email = started.otherFactors?.includes('email') === true
          return html(c, 200, 'Confirm it is you', passkeyView({ ...ids, options: hint.options, email }), passkeyScript)
        }
        await requireFreshFactor(deps, found.app, found.session, change, proof)
        await grantPermission(deps.store, found.walletId)
        return html(c, 200, 'Permission granted', grantedView(found.address))
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        if (error.status === 401) return html(c, 400, 'Link expired', invalidLinkView(false))
        // A user no factor reaches must sign in again first: starting again here would not help.
        return step(error.status, sentence(error.message), !isLateSignIn(error))
      }
    })
}

/** A service message as the page shows it: without the API's prefix, a capital first, a full stop last. */
const sentence = (message: string) => {
  const text = message.replace(/^Step-up required: /, '')
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`
}

const isLateSignIn = (error: HttpError) => (error.data as { stepUp?: { factors?: unknown[] } } | undefined)?.stepUp?.factors?.length === 0

function parsed(json: string): JsonObject {
  try {
    const value: unknown = JSON.parse(json)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonObject
  } catch {}
  throw new HttpError(400, 'The passkey answer is not readable: start again')
}

type Found = {
  walletId: string
  address: string
  granted: boolean
  appName: string
  app: App
  /** The session that asked: the one the step-up must be answered in. */
  session: StepUpSession
  grantHash: string
}

/**
 * The wallet a permission token names; the token's audience says which app and environment to check
 * it for. A token naming no session or grant, or a session that has ended, is no link at all.
 */
async function lookUp(deps: Deps, token: string): Promise<Found> {
  const [appId, env] = String(decodeJwt(token).aud ?? '').split(':')
  const environment = parseEnvironment(env)
  const app = appId && environment ? await findApp(deps.store, appId, environment) : undefined
  if (!app) throw new HttpError(400, 'Invalid token')
  const { userId, familyId, tokenId } = await verifyToken(deps.keys.jwtKey, token, { kind: 'permission', appId: app.appId, environment: app.environment })
  if (!familyId || !tokenId || (await isFamilyRevoked(deps.store, familyId))) throw new HttpError(400, 'Invalid token')
  const wallet = await permissionOf(deps.store, userId)
  if (!wallet) throw new HttpError(400, 'Invalid token')
  return {
    walletId: wallet.id,
    address: wallet.address,
    granted: wallet.permission_granted,
    appName: app.name,
    app,
    session: { userId, familyId },
    grantHash: permissionGrantHash(tokenId),
  }
}
