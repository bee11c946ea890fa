import { ErrorCode, fail, type Fail } from './errors.ts'
import { hostEvents, views, type HostMethods, type WidgetMethods } from './methods.ts'

/**
 * Runtime checks for every call that crosses the bridge. A checker returns `undefined` when the
 * arguments are fine, else the reason. The other side is never trusted: a bad shape becomes a
 * -32602 answer, an unknown method a 4200 answer, never a throw.
 */
type Checker = (args: readonly unknown[]) => string | undefined

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

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

export const widgetChecks: { readonly [K in keyof WidgetMethods]: Checker } = {
  hello: arity(1, ([h]) =>
    isRecord(h) && Number.isInteger(h.protocol) ? undefined : 'hello must carry an integer protocol version',
  ),
  request: arity(1, ([r]) => checkRpcRequest(r)),
  open: arity(1, ([v]) => ((views as readonly unknown[]).includes(v) ? undefined : `unknown view: ${describe(v)}`)),
  close: arity(0),
}

export const hostChecks: { readonly [K in keyof HostMethods]: Checker } = {
  setVisible: arity(1, ([v]) => (typeof v === 'boolean' ? undefined : 'visible must be a boolean')),
  emit: arity(2, ([e]) => ((hostEvents as readonly unknown[]).includes(e) ? undefined : `unknown event: ${describe(e)}`)),
}

/** Checks a named call against a table; unknown names answer 4200. */
export function checkCall(
  checks: Readonly<Record<string, Checker>>,
  name: string,
  args: readonly unknown[],
): Fail | undefined {
  const check = Object.hasOwn(checks, name) ? checks[name] : undefined
  if (!check) return fail(ErrorCode.unsupportedMethod, `Unsupported bridge method: ${name}`)
  const reason = check(args)
  return reason === undefined ? undefined : fail(ErrorCode.invalidParams, `Invalid arguments for ${name}: ${reason}`)
}
