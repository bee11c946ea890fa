import { afterEach, inject } from 'vitest'
import type { Engine, EngineName } from './engine.ts'
import { launchEngine } from './engines.ts'
import { shortly, untilTrue } from './locate.ts'

/** The stack the global setup started. */
export const urls = () => ({ providerUrl: inject('providerUrl'), demoOrigin: inject('demoOrigin'), otherDemoOrigin: inject('otherDemoOrigin') })

export const frameElement = '[data-testid=wallet-kit-frame]'
export const emailField = 'input[placeholder="Enter your email"]'
export const codeField = 'input[autocomplete="one-time-code"]'
export const addressPattern = /^0x[0-9a-fA-F]{40}$/

/**
 * A launcher of `name` for each test of the file: a fresh browser (no session or storage carried
 * over), closed after the test; a failed test leaves a screenshot of the page named after it.
 */
export function useEngine(name: EngineName): () => Promise<Engine> {
  let current: Engine | undefined
  afterEach(async (context) => {
    const engine = current
    current = undefined
    if (!engine) return
    if (context.task.result?.state === 'fail') {
      const shot = `failed-${context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`
      await engine.screenshot('page', shot).catch(() => {})
    }
    await engine.close()
  })
  return async () => {
    current = await launchEngine(name)
    return current
  }
}

/** Polls `read` until `accept` takes its value; returns that value. */
export async function until<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string, timeout = 20_000): Promise<T> {
  let last: T | undefined
  await untilTrue(
    async () => {
      last = await read()
      return accept(last)
    },
    timeout,
    `${what}; last seen: ${JSON.stringify(last)}`,
  )
  return last as T
}

/** The newest login code the sandbox's dev inbox holds for `to`. */
export async function latestCode(providerUrl: string, to: string): Promise<string> {
  const read = async () => {
    const res = await fetch(`${providerUrl}/dev/api/inbox?to=${encodeURIComponent(to)}`)
    return ((await res.json()) as { code: string }[])[0]?.code ?? ''
  }
  return until(read, (code) => /^\d{6}$/.test(code), `a login code for ${to}`)
}

export const uniqueEmail = () => `engine-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** Signs a new user up in the connect modal that is open (e-mail, code, new wallet, Done); returns the e-mail. */
export async function logInInFrame(engine: Engine, shots?: string): Promise<string> {
  const email = uniqueEmail()
  await engine.type('frame', emailField, email)
  if (shots) await engine.screenshot('page', `${shots}-email`)
  await engine.click('frame', 'text=Continue')
  await engine.type('frame', codeField, await latestCode(urls().providerUrl, email))
  await engine.click('frame', 'text=Done')
  await engine.waitFor('page', frameElement, { hidden: true })
  return email
}

/** Signs a new user up through the demo page's Connect button; returns the address it shows. */
export async function signUp(engine: Engine, shots?: string): Promise<`0x${string}`> {
  await engine.goto(`${urls().demoOrigin}/demo/`)
  await engine.click('page', 'text=Connect')
  await engine.waitFor('frame', emailField)
  if (shots) await engine.screenshot('page', `${shots}-connect`)
  await logInInFrame(engine, shots)
  const address = await until(
    () => engine.text('page', '[data-testid=account]'),
    (text) => addressPattern.test(text),
    'the demo page shows the account',
  )
  return address as `0x${string}`
}

export type Outcome = { result?: unknown; code?: number; message?: string }

/**
 * Starts a provider request in the page; settles with its result, or its error's code and message.
 * A test that fails before awaiting it closes the browser under it: that rejection is not reported
 * again as unhandled (the test's own failure is the one to read).
 */
export function startRequest(engine: Engine, method: string, params?: unknown): Promise<Outcome> {
  const outcome = engine.run<Outcome>(
    'page',
    `const [request] = args
    return window.WalletKit.kit.provider.request(request).then(
      (result) => ({ result }),
      (e) => ({ code: e.code, message: e.message }),
    )`,
    params === undefined ? { method } : { method, params },
  )
  outcome.catch(() => {})
  return outcome
}

/** What the page's provider answers for eth_accounts. */
export const accounts = (engine: Engine) => startRequest(engine, 'eth_accounts').then((outcome) => outcome.result as string[])

/** Whether `promise` is still unsettled after a short look. */
export async function pending(promise: Promise<unknown>): Promise<boolean> {
  return (await Promise.race([promise.then(() => 'settled'), shortly(200).then(() => 'pending')])) === 'pending'
}

/**
 * Confirms the request the frame shows in the secure window: 'Open secure window' in the frame
 * (gated like Confirm), the window's Confirm; the window closes itself when done.
 */
export async function confirmInSecureWindow(engine: Engine, shots?: string): Promise<void> {
  const before = await engine.windowCount()
  await engine.click('frame', 'text=Open secure window')
  await engine.waitForWindow()
  await engine.waitFor('window', 'text=Confirm')
  if (shots) await engine.screenshot('window', `${shots}-secure-window`)
  await engine.click('window', 'text=Confirm')
  await until(
    () => engine.windowCount(),
    (count) => count === before,
    'the secure window closes itself',
    30_000,
  )
}

/**
 * Runs a bundled fixture (e2e/fixture-script.ts) in the page once it has loaded: the Engine adds no
 * script before a page's own. The bundle runs inside the run's function, so the `var` its IIFE
 * assigns stays local: `global` (that name) is put on window.
 */
export async function runPageScript(engine: Engine, code: string, global?: string): Promise<void> {
  if (global !== undefined && !/^[A-Za-z_$][\w$]*$/.test(global)) throw new Error(`not a script global: ${global}`)
  await engine.run('page', `${code}\n;${global ? `window.${global} = ${global};` : ''}\nreturn true`)
}
