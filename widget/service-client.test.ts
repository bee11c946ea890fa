import { describe, expect, test, vi } from 'vitest'
import type { AccountClient } from '../sdk/wallet/account.ts'
import type { AuthClient } from '../sdk/wallet/auth.ts'
import { createWidgetClient } from './service-client.ts'

/**
 * The frame's sign-in calls (sdk/wallet/auth.ts) and account calls (sdk/wallet/account.ts) stay out
 * of its first route: each module loads at its client's first call, and until then the client
 * holds a wrapper that forwards each call to it. Each module is replaced by a recorder whose every
 * call answers its name and arguments (one call of each rejects); loading it is counted.
 */
type Seen = { loads: number; contexts: unknown[]; names: string[]; calls: [string, unknown[]][] }
const seen = vi.hoisted(() => {
  const fresh = (): Seen => ({ loads: 0, contexts: [], names: [], calls: [] })
  return { auth: fresh(), account: fresh() }
})
const refused = new Error('Refused')
const refusing = { auth: 'verifyOtp', account: 'recover' } as const
/** Two calls of each client, made first (before its module has loaded and its names are known). */
const firstCalls = { auth: ['loginOtp', 'login'], account: ['refresh', 'create'] } as const

/** The recorder a module's client maker is replaced by. */
function recorder(kind: keyof typeof seen, ctx: unknown) {
  seen[kind].contexts.push(ctx)
  const calls: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const name of seen[kind].names)
    calls[name] = async (...args) => {
      seen[kind].calls.push([name, args])
      if (name === refusing[kind]) throw refused
      return { answeredBy: name, args }
    }
  return calls
}

vi.mock('../sdk/wallet/auth.ts', async (importOriginal) => {
  seen.auth.loads++
  const actual = await importOriginal<typeof import('../sdk/wallet/auth.ts')>()
  seen.auth.names = Object.keys(actual.createAuthClient({}))
  return { ...actual, createAuthClient: (ctx: unknown) => recorder('auth', ctx) }
})
vi.mock('../sdk/wallet/account.ts', async (importOriginal) => {
  seen.account.loads++
  const actual = await importOriginal<typeof import('../sdk/wallet/account.ts')>()
  seen.account.names = Object.keys(actual.createAccountClient({}))
  return { ...actual, createAccountClient: (ctx: unknown) => recorder('account', ctx) }
})

const client = createWidgetClient({ appId: 'demo', fetch: () => Promise.reject(new Error('no network in this test')) })

test('nothing loads the sign-in or account module before a call: building the client, reading its calls, printing it', () => {
  expect(typeof client.auth.loginOtp).toBe('function')
  expect(typeof client.auth.adopt).toBe('function')
  expect(typeof client.account.refresh).toBe('function')
  expect(String(client.auth)).toBe('[object Object]')
  expect(String(client.account)).toBe('[object Object]')
  expect(seen.auth.loads).toBe(0)
  expect(seen.account.loads).toBe(0)
})

describe.each(['auth', 'account'] as const)('the %s client', (kind) => {
  const calls = () => client[kind] as unknown as Record<PropertyKey, unknown>

  test('is a plain object of its calls: no thenable, no symbol, no name it does not list', () => {
    expect(calls().then).toBeUndefined()
    expect(calls()[Symbol.toPrimitive]).toBeUndefined()
    expect(calls()[Symbol.iterator]).toBeUndefined()
    expect(calls().notACall).toBeUndefined()
    expect(Object.getPrototypeOf(client[kind])).toBe(Object.prototype)
  })

  test('its first calls load the module once and make one client, on the frame client context, and answer what it answers', async () => {
    const options = { signal: new AbortController().signal }
    const [a, b] = firstCalls[kind]
    const call = (name: string) => calls()[name] as (...args: unknown[]) => Promise<unknown>
    // Two calls at once, before the module has loaded: one load, one client.
    const [first, second] = await Promise.all([call(a)({ marker: 1 }, options), call(b)({ marker: 2 })])
    expect(first).toEqual({ answeredBy: a, args: [{ marker: 1 }, options] })
    expect(second).toEqual({ answeredBy: b, args: [{ marker: 2 }] })
    expect(seen[kind].loads).toBe(1)
    expect(seen[kind].contexts).toHaveLength(1)
    expect(seen[kind].contexts[0]).toBe(client.context)
    expect(seen[kind].calls.find(([name]) => name === a)?.[1][1]).toBe(options)
  })

  test("every call is forwarded with its arguments and answer, and a refusal stays the client's error", async () => {
    // The wrapper lists exactly the calls the real client has.
    expect(Object.keys(client[kind]).sort()).toEqual([...seen[kind].names].sort())
    for (const name of seen[kind].names) {
      const args = [{ marker: name }, { timeout: name.length }]
      const call = calls()[name] as (...a: unknown[]) => Promise<unknown>
      if (name === refusing[kind]) await expect(call(...args)).rejects.toBe(refused)
      else expect(await call(...args), name).toEqual({ answeredBy: name, args })
      expect(seen[kind].calls.at(-1), name).toEqual([name, args])
    }
    // One module load and one client for all of them.
    expect(seen[kind].loads).toBe(1)
    expect(seen[kind].contexts).toHaveLength(1)
  })
})

test('the wrappers have the clients’ shapes', () => {
  const auth: AuthClient = client.auth
  const account: AccountClient = client.account
  expect(Object.keys(auth)).toHaveLength(seen.auth.names.length)
  expect(Object.keys(account)).toHaveLength(seen.account.names.length)
})
