import { ErrorCode, type RpcError } from './error-classes.ts'
import { hostEvents, views, type Fail, type HostMethods, type Ok, type Result, type WalletDescriptor, type WidgetMethods } from './methods.ts'
import { checkOpenUrl } from './open-url.ts'
import { isAddress, isQuantity, isRecord } from './rpc-params.ts'
import { checkRpcRequest } from './rpc-methods.ts'
import { takesSignInName } from './sign-in-names.ts'

/**
 * Serving the bridge's methods, on both sides: every incoming call is checked on arrival against
 * its side's table (`widgetChecks`, `hostChecks`) and every outcome, value or throw, is answered
 * as a `Result`. Penpal keeps only name, message and stack of a thrown error, so nothing throws
 * across: the other side rebuilds the error class from the code (error-classes.ts).
 */

export function ok<T>(result: T): Ok<T> {
  return { result }
}

export function fail(code: number, message: string, data?: unknown): Fail {
  return data === undefined ? { error: { code, message } } : { error: { code, message, data } }
}

/** Turns anything thrown into a serialisable error, keeping a numeric `code` when the thrown value has one. */
export function toFail(err: unknown): Fail {
  if (typeof err === 'object' && err !== null) {
    const { code, message, data } = err as { code?: unknown; message?: unknown; data?: unknown }
    const text = typeof message === 'string' && message ? message : 'Internal error'
    if (typeof code === 'number' && Number.isInteger(code)) return fail(code, text, data)
    return fail(ErrorCode.internal, text)
  }
  return fail(ErrorCode.internal, typeof err === 'string' && err ? err : 'Internal error')
}

/** `{ result }` or `{ error: { code, message } }`, never both (JSON-RPC 2.0): callers tell them apart by `'error' in`. */
export function isResult(value: unknown): value is Result {
  if (typeof value !== 'object' || value === null) return false
  if ('result' in value) return !('error' in value)
  if (!('error' in value)) return false
  const { error } = value as { error: unknown }
  return typeof error === 'object' && error !== null && typeof (error as RpcError).code === 'number' && typeof (error as RpcError).message === 'string'
}

/**
 * The checks for every call that crosses the bridge. A checker returns `undefined` when the
 * arguments are fine, else the reason. The other side is never trusted: a bad shape becomes a
 * -32602 answer, an unknown method a 4200 answer, never a throw.
 */
type Checker = (args: readonly unknown[]) => string | undefined

/** Names a bad value without running any code it carries (no user toString). */
const describe = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v.slice(0, 64)) : v === null ? 'null' : typeof v)

const arity =
  (n: number, check: Checker = () => undefined): Checker =>
  (args) =>
    args.length !== n ? `expected ${n} argument${n === 1 ? '' : 's'}, got ${args.length}` : check(args)

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
  // Both are read by its handler, loaded with the first call (-32602 too): the frame's first load stays small.
  connectAnswer: arity(2),
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

type Handlers = Record<string, (...args: never[]) => unknown>
type Served<H extends Handlers> = { [K in keyof H]: (...args: unknown[]) => Promise<Result> }

/**
 * Wraps local handlers into the method map handed to Penpal: every incoming call is checked
 * against `checks`, and every outcome (value or throw) becomes a `Result`. Nothing throws across.
 */
export function serve<H extends Handlers>(checks: { readonly [K in keyof H]: (args: readonly unknown[]) => string | undefined }, handlers: H): Served<H> {
  // No prototype: Penpal looks a call's method path up with a plain property read, so on `{}` a
  // CALL of ['constructor'] or ['toString'] would run Object or Object.prototype.toString.
  const served = Object.create(null) as Record<string, (...args: unknown[]) => Promise<Result>>
  for (const name of Object.keys(checks)) {
    served[name] = (...args) => dispatch(checks, handlers, name, args)
  }
  return served as Served<H>
}

/** One call by name; also answers names that are not in the table (4200). */
export async function dispatch(
  checks: Readonly<Record<string, (args: readonly unknown[]) => string | undefined>>,
  handlers: Handlers,
  name: string,
  args: readonly unknown[],
): Promise<Result> {
  const rejected = checkCall(checks, name, args)
  if (rejected) return rejected
  try {
    const handler = handlers[name] as (...a: unknown[]) => unknown
    const value = await handler(...args)
    return ok(value === undefined ? null : value)
  } catch (err) {
    return toFail(err)
  }
}
