import { expect, test, vi } from 'vitest'
import type { AuthClient } from '../sdk/wallet/auth.ts'
import { createWidgetClient } from './service-client.ts'

/**
 * The frame's sign-in calls (sdk/wallet/auth.ts) stay out of its first route: the module loads at
 * the first sign-in call, and until then the client holds a wrapper that forwards each call to it.
 * The module is replaced by a recorder whose every call answers its name and arguments (`verifyOtp`
 * rejects); loading it is counted.
 */
const seen = vi.hoisted(() => ({ loads: 0, contexts: [] as unknown[], names: [] as string[], calls: [] as [string, unknown[]][] }))
const refused = new Error('Invalid code')

vi.mock('../sdk/wallet/auth.ts', async (importOriginal) => {
  seen.loads++
  const actual = await importOriginal<typeof import('../sdk/wallet/auth.ts')>()
  seen.names = Object.keys(actual.createAuthClient({}))
  return {
    ...actual,
    createAuthClient: (ctx: unknown) => {
      seen.contexts.push(ctx)
      const recorder: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
      for (const name of seen.names)
        recorder[name] = async (...args) => {
          seen.calls.push([name, args])
          if (name === 'verifyOtp') throw refused
          return { answeredBy: name, args }
        }
      return recorder
    },
  }
})

const client = createWidgetClient({ appId: 'demo', fetch: () => Promise.reject(new Error('no network in this test')) })
const calls = client.auth as unknown as Record<PropertyKey, unknown>

test('nothing loads the sign-in module before a sign-in call: building the client, reading its calls, printing it', () => {
  expect(typeof client.auth.loginOtp).toBe('function')
  expect(typeof client.auth.adopt).toBe('function')
  expect(String(client.auth)).toBe('[object Object]')
  expect(seen.loads).toBe(0)
})

test('the wrapper is a plain object of the sign-in calls: no thenable, no symbol, no name it does not list', () => {
  expect(calls.then).toBeUndefined()
  expect(calls[Symbol.toPrimitive]).toBeUndefined()
  expect(calls[Symbol.iterator]).toBeUndefined()
  expect(calls.notACall).toBeUndefined()
  expect(Object.getPrototypeOf(client.auth)).toBe(Object.prototype)
  expect(seen.loads).toBe(0)
})

test('the first sign-in calls load the module once and make one client, on the frame client context, and answer what it answers', async () => {
  const options = { signal: new AbortController().signal }
  // Two calls at once, before the module has loaded: one load, one client.
  const [first, second] = await Promise.all([client.auth.loginOtp({ email: 'a@example.com' }, options), client.auth.login({ username: 'a', password: 'b' })])
  expect(first).toEqual({ answeredBy: 'loginOtp', args: [{ email: 'a@example.com' }, options] })
  expect(second).toEqual({ answeredBy: 'login', args: [{ username: 'a', password: 'b' }] })
  expect(seen.loads).toBe(1)
  expect(seen.contexts).toHaveLength(1)
  expect(seen.contexts[0]).toBe(client.context)
  expect(seen.calls.find(([name]) => name === 'loginOtp')?.[1][1]).toBe(options)
})

test("every call of the sign-in client is forwarded with its arguments and answer, and a refusal stays the client's error", async () => {
  // The wrapper lists exactly the calls the real client has.
  expect(Object.keys(client.auth).sort()).toEqual([...seen.names].sort())
  for (const name of seen.names.filter((n) => n !== 'verifyOtp')) {
    const args = [{ marker: name }, { timeout: name.length }]
    const call = calls[name] as (...a: unknown[]) => Promise<unknown>
    expect(await call(...args), name).toEqual({ answeredBy: name, args })
    expect(seen.calls.at(-1), name).toEqual([name, args])
  }
  await expect(client.auth.verifyOtp({ verificationToken: 't', otp: '000000' })).rejects.toBe(refused)
  expect(seen.calls.at(-1)).toEqual(['verifyOtp', [{ verificationToken: 't', otp: '000000' }]])
  // One module load and one client for all of them.
  expect(seen.loads).toBe(1)
  expect(seen.contexts).toHaveLength(1)
})

test('a call typed as the sign-in client: the wrapper has the AuthClient shape', () => {
  const typed: AuthClient = client.auth
  expect(Object.keys(typed)).toHaveLength(seen.names.length)
})
