import { ErrorCode, fail, type Fail } from './errors.ts'
import { hostEvents, views, type HostMethods, type WalletDescriptor, type WidgetMethods } from './methods.ts'
import { checkOpenUrl } from './open-url.ts'
import { isAddress, isQuantity, isRecord } from './rpc-params.ts'
import { takesSignInName } from './sign-in-names.ts'

/**
 * Runtime checks for every call that crosses the bridge. A checker returns `undefined` when the
 * arguments are fine, else the reason. The other side is never trusted: a bad shape becomes a
 * -32602 answer, an unknown method a 4200 answer, never a throw.
 */
type Checker = (args: readonly unknown[]) => string | undefined

export { isRecord }

/** Names a bad value without running any code it carries (no user toString). */
const describe = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v.slice(0, 64)) : v === null ? 'null' : typeof v)

const arity =
  (n: number, check: Checker = () => undefined): Checker =>
  (args) =>
    args.length !== n ? `expected ${n} argument${n === 1 ? '' : 's'}, got ${args.length}` : check(args)

export function checkRpcRequest(value: unknown): string | undefined {
  if (!isRecord(value)) return 'request must be an object'
  const { method, params } = value
  if (typeof method !== 'string' || method.length === 0 || method.length > 128) return 'method must be a non-empty string'
  if (params !== undefined && !Array.isArray(params) && !isRecord(params)) return 'params must be an array or an object'
  return undefined
}

/** A nonce a page binds an identity token to: 8 to 128 visible ASCII characters, as the provider takes it. */
export const isIdentityNonce = (v: unknown): v is string => typeof v === 'string' && /^[!-~]{8,128}$/.test(v)

export const widgetChecks: { readonly [K in keyof WidgetMethods]: Checker } = {
  hello: arity(1, ([h]) => (isRecord(h) && Number.isInteger(h.protocol) ? undefined : 'hello must carry an integer protocol version')),
  request: arity(1, ([r]) => checkRpcRequest(r)),
  open: arity(1, ([v]) => ((views as readonly unknown[]).includes(v) ? undefined : `unknown view: ${describe(v)}`)),
  close: arity(0),
  disconnect: arity(0),
  setWallets: arity(1, ([list]) => checkWallets(list)),
  identityToken: arity(1, ([n]) => (n === undefined || isIdentityNonce(n) ? undefined : 'nonce must be 8 to 128 visible ASCII characters')),
}

export const hostChecks: { readonly [K in keyof HostMethods]: Checker } = {
  setVisible: arity(1, ([v]) => (typeof v === 'boolean' ? undefined : 'visible must be a boolean')),
  emit: arity(2, ([e]) => ((hostEvents as readonly unknown[]).includes(e) ? undefined : `unknown event: ${describe(e)}`)),
  connectExternal: arity(1, ([id]) => (typeof id === 'string' && id.length > 0 && id.length <= 256 ? undefined : 'walletId must be a non-empty string')),
  openUrl: arity(2, ([url, target]) => checkOpenArgs(url, target)),
}

const maxWallets = 50

function checkWallets(list: unknown): string | undefined {
  if (!Array.isArray(list)) return 'wallets must be an array'
  if (list.length > maxWallets) return `at most ${maxWallets} wallets`
  for (const [i, w] of list.entries()) {
    if (!isRecord(w)) return `wallets[${i}] must be an object`
    if (typeof w.id !== 'string' || !w.id || w.id.length > 256) return `wallets[${i}].id must be a non-empty string`
    if (typeof w.name !== 'string' || !w.name || w.name.length > 100) return `wallets[${i}].name must be a non-empty string`
    // EIP-6963 icons are data URIs; the frame's CSP loads no image from the host's servers.
    if (typeof w.icon !== 'string' || !w.icon.startsWith('data:image/') || w.icon.length > 100_000) return `wallets[${i}].icon must be a data:image URI`
    if (w.connector !== 'injected' && w.connector !== 'walletconnect') return `wallets[${i}].connector is unknown`
    if (typeof w.installed !== 'boolean') return `wallets[${i}].installed must be a boolean`
    if (w.rdns !== undefined && typeof w.rdns !== 'string') return `wallets[${i}].rdns must be a string`
  }
  return undefined
}

/**
 * The host's wallets the modal may show, and why each other one was refused. A wallet may not take
 * the name of one of the modal's sign-in methods (bridge/sign-in-names.ts): the frame is trusted,
 * and 'Google' in its list must be Google. Shapes were checked already; one impostor does not hide
 * the page's real wallets.
 */
export function screenWallets(wallets: readonly WalletDescriptor[]): { shown: WalletDescriptor[]; refused: string[] } {
  const shown: WalletDescriptor[] = []
  const refused: string[] = []
  for (const wallet of wallets) {
    const method = takesSignInName(wallet.name)
    if (method) refused.push(`wallet ${describe(wallet.name)} takes the name of the sign-in method ${method}`)
    else shown.push(wallet)
  }
  return { shown, refused }
}

/** Only web pages and the listed wallet deep links (bridge/open-url.ts). */
function checkOpenArgs(url: unknown, target: unknown): string | undefined {
  if (target !== '_blank' && target !== '_top') return 'target must be _blank or _top'
  return checkOpenUrl(url)
}

/** The host's answer to connectExternal is checked like any incoming call. */
export function checkExternalConnection(value: unknown): string | undefined {
  if (!isRecord(value)) return 'connection must be an object'
  const { accounts, chainId } = value
  if (!Array.isArray(accounts) || accounts.length === 0 || !accounts.every(isAddress)) return 'accounts must be a non-empty list of addresses'
  if (!isQuantity(chainId)) return 'chainId must be a hex string'
  return undefined
}

/** Checks a named call against a table; unknown names answer 4200. */
export function checkCall(checks: Readonly<Record<string, Checker>>, name: string, args: readonly unknown[]): Fail | undefined {
  const check = Object.hasOwn(checks, name) ? checks[name] : undefined
  if (!check) return fail(ErrorCode.unsupportedMethod, `Unsupported bridge method: ${name}`)
  const reason = check(args)
  return reason === undefined ? undefined : fail(ErrorCode.invalidParams, `Invalid arguments for ${name}: ${reason}`)
}
