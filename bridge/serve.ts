import { ok, toFail, type Result } from './errors.ts'
import { checkCall } from './validate.ts'

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
