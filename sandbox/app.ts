import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { Deps, SandboxEnv } from './context.ts'
import { devWalletRoutes } from './emulators/dev-wallets.ts'
import { inboxRoutes } from './emulators/inbox/routes.ts'
import { devWalletPageRoutes } from './emulators/wallet/routes.ts'
import { oauthRoutes } from './emulators/oidc/routes.ts'
import { onrampPageRoutes } from './emulators/onramp/routes.ts'
import { permissionRoutes } from './emulators/permission/routes.ts'
import { popupRoutes } from './emulators/popups/routes.ts'
import { telegramRoutes } from './emulators/telegram/routes.ts'
import { accountRoutes } from './services/account/routes.ts'
import { exportKeyRoutes } from './services/account/export-routes.ts'
import { organizationRoutes } from './services/app-config/organization-routes.ts'
import { configRoutes } from './services/app-config/routes.ts'
import { apiCors, requireApp } from './services/auth/app-guard.ts'
import { passwordRoutes } from './services/auth/password-routes.ts'
import { authRoutes } from './services/auth/routes.ts'
import { socialRoutes } from './services/auth/social-routes.ts'
import { iconRoutes } from './services/chain/icon-routes.ts'
import { handoffRoutes } from './services/popup/handoff-routes.ts'
import { identityTokenRoutes, jwksRoutes } from './services/identity/routes.ts'
import { passkeyRoutes, passkeySignInRoutes } from './services/passkeys/routes.ts'
import { popupChannelRoutes } from './services/popup/routes.ts'
import { rpcRoutes } from './services/chain/rpc-routes.ts'
import { rampServiceRoutes } from './services/ramp/routes.ts'
import { smartAccountRoutes } from './services/smart-account/routes.ts'
import { bundlerRpcRoutes } from './services/smart-account/rpc-routes.ts'
import { readRoutes } from './services/wallet/read-routes.ts'
import { walletRoutes } from './services/wallet/routes.ts'
import { sendRoutes } from './services/wallet/send-routes.ts'
import { signRoutes } from './services/wallet/sign-routes.ts'
import { userThresholdRoutes } from './services/wallet/user-threshold-routes.ts'
import { stepUpRoutes } from './services/step-up/routes.ts'
import { relayPath } from './services/walletconnect/config.ts'
import { relayPageRoutes } from './services/walletconnect/routes.ts'
import { everyAnswer, refuseControlText, fail, notFound, onError, requireOwnHost } from './http/exchange.ts'
import { frameRoutes } from './services/frame/routes.ts'
import { clientAddressVariable, socketAddress } from './http/rate-limit.ts'

/** The whole HTTP surface: guards and body limits per path, then each service's and emulator's routes. */
export function createApp(deps: Deps, log: boolean) {
  const limit = (size: number) => bodyLimit({ maxSize: size, onError: (c) => fail(c, 413, 'Request body too large') })
  // A body is read for control characters only within its path's limit (http/exchange.ts refuseControlText).
  const api = (size: number) => [limit(size), refuseControlText({ body: true })] as const
  const app = new Hono<SandboxEnv>()
  app.onError(onError)
  app.notFound(notFound)
  app.use('*', everyAnswer(log))
  app.use('*', requireOwnHost(deps))
  // No path or query parameter holds a control character (a NUL was a 500 wherever it reached PostgreSQL).
  app.use('*', refuseControlText({ body: false }))
  const { clientAddressOf } = deps
  if (clientAddressOf)
    app.use('*', async (c, next) => {
      c.set(clientAddressVariable, clientAddressOf(socketAddress(c)))
      return next()
    })
  app.get('/health', (c) => c.json({ ok: true }))
  app.use('/api/*', apiCors(deps), limit(64 * 1024))
  app.use('/api/v1/*', refuseControlText({ body: true }))
  app.route('/api/v1', configRoutes(deps, requireApp(deps)))
  app.route('/api/v1', smartAccountRoutes(deps))
  app.route('/api/v1', bundlerRpcRoutes(deps))
  // After the app guard, so the widget can read the 400 (its CORS header is set there).
  app.use('/api/v2/*', requireApp(deps, { walletService: true }), refuseControlText({ body: true }))
  app.route('/api/v2/auth', authRoutes(deps))
  app.route('/api/v2/auth', passwordRoutes(deps))
  app.route('/api/v2/auth', socialRoutes(deps))
  app.route('/api/v2/auth', handoffRoutes(deps))
  app.route('/api/v2/auth', passkeySignInRoutes(deps))
  app.route('/api/v2/auth', stepUpRoutes(deps))
  app.route('/api/v2/account', accountRoutes(deps))
  app.route('/api/v2/account', exportKeyRoutes(deps))
  app.route('/api/v2/wallet', signRoutes(deps))
  app.route('/api/v2/wallet', sendRoutes(deps))
  app.route('/api/v2/wallet', readRoutes(deps))
  app.route('/api/v2/wallet', walletRoutes(deps))
  app.route('/api/v2/wallet', userThresholdRoutes(deps))
  app.route('/api/v2/wallet', identityTokenRoutes(deps))
  app.route('/api/v2/wallet', passkeyRoutes(deps))
  app.route('/api/v2/organization', organizationRoutes(deps))
  app.use('/v1/*', ...api(64 * 1024))
  app.route('/v1', rampServiceRoutes(deps))
  // JSON-RPC: the chain judges its params, and answers in JSON-RPC's own errors.
  app.use('/rpc/*', limit(1024 * 1024))
  app.route('/rpc', rpcRoutes(deps))
  app.route('/popup-channel', popupChannelRoutes(deps))
  // WebSocket upgrades on this path go to the relay before Hono (services/walletconnect/routes.ts).
  app.route(relayPath, relayPageRoutes())
  app.use('/dev/api/*', ...api(16 * 1024))
  app.route('/icons', iconRoutes(deps))
  app.route('/dev', inboxRoutes(deps))
  app.route('/dev', devWalletRoutes(deps))
  app.route('/dev', devWalletPageRoutes(deps))
  app.route('/', jwksRoutes(deps))
  app.use('/permission/*', ...api(16 * 1024))
  app.route('/permission', permissionRoutes(deps))
  app.use('/oauth/*', ...api(16 * 1024))
  app.route('/oauth', oauthRoutes(deps))
  app.use('/onramp', ...api(16 * 1024))
  app.route('/onramp', onrampPageRoutes(deps))
  app.use('/telegram/*', ...api(16 * 1024))
  app.use('/widget/oauth-callback.html', ...api(32 * 1024))
  app.route('/telegram', telegramRoutes(deps))
  app.route('/', popupRoutes())
  app.route('/', frameRoutes(deps))
  return app
}
