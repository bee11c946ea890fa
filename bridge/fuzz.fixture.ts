/**
 * Test support for the fuzz suites (widget/bridge-fuzz.test.ts, host-sdk/*-fuzz.test.ts,
 * sandbox/http/routes-fuzz.test.ts): a small seeded PRNG and generators of hostile values. Every case
 * draws from its own generator, seeded from the suite's seed and the case's index, so one failing
 * case is reproduced alone: FUZZ_SEED=<seed> npx vitest run <file>.
 */
export const fuzzSeed = Number(process.env.FUZZ_SEED ?? 0x5eed_1e55)

export type Fuzz = ReturnType<typeof fuzzer>

/** Which values a generator may produce: JSON only (HTTP bodies), what postMessage can clone, or anything (a dapp's own call). */
export type Domain = 'json' | 'clone' | 'any'

/** Keys that have hurt JavaScript parsers and lookups before. */
export const prototypeKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'then', '__defineGetter__'] as const

const strings = [
  '',
  ' ',
  ...prototypeKeys,
  'null',
  'undefined',
  'NaN',
  'true',
  '0',
  '-1',
  '0x',
  '0x0',
  '0xzz',
  '0x123',
  `0x${'f'.repeat(65)}`,
  `0x${'0'.repeat(39)}`,
  '0x000000000000000000000000000000000000dEaG',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  "'; DROP TABLE users; --",
  `$${'{'}7*7}{{7*7}}`,
  '../../../etc/passwd',
  '%00%2e%2e',
  '\u0000',
  '\uD800',
  '\u202Egnp.exe',
  '🦊',
  'a'.repeat(129),
  'eth_sign',
  'penpal',
  'SYN',
  'Bearer ',
  'Bearer x.y.z',
  'application/json',
] as const

const numbers = [0, -0, 1, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 53 + 2, 1e308, -5e-324, 4294967296] as const

/** SplitMix32-style mixing: the seed of case `index` of a suite seeded `seed`. */
function mix(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** Mulberry32: fast, small and good enough to pick test inputs. */
export function fuzzer(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!
  const chance = (p: number) => next() < p
  const hex = (digits: number) => Array.from({ length: digits }, () => '0123456789abcdef'[int(16)]).join('')

  /** A short hostile or random string. */
  function string(): string {
    if (chance(0.6)) return pick(strings)
    const length = int(24)
    return Array.from({ length }, () => String.fromCharCode(chance(0.9) ? 32 + int(95) : int(0x3000))).join('')
  }

  /** A payload far larger than any real message: a long string, a long array or a deep nest. */
  function huge(domain: Domain): unknown {
    const kind = int(3)
    if (kind === 0) return 'x'.repeat(100_000 + int(400_000))
    if (kind === 1) return Array.from({ length: 5_000 + int(20_000) }, (_, i) => (i % 2 ? string() : i))
    let nested: unknown = domain === 'json' ? 'bottom' : undefined
    for (let depth = 0; depth < 500 + int(2_000); depth++) nested = chance(0.5) ? [nested] : { a: nested }
    return nested
  }

  /** An object whose own keys include prototype names; `__proto__` defined as data, as JSON.parse makes it. */
  function record(domain: Domain, depth: number, keys: readonly string[] = []): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    const names = [...keys, ...Array.from({ length: int(4) }, () => (chance(0.4) ? pick(prototypeKeys) : string()))]
    for (const key of names) Object.defineProperty(out, key, { value: value(domain, depth + 1), enumerable: true, writable: true, configurable: true })
    return out
  }

  /** Any value of `domain`, nested at most a few levels (rarely huge). */
  function value(domain: Domain = 'clone', depth = 0): unknown {
    if (depth < 2 && chance(0.003)) return huge(domain)
    const kinds = depth > 3 ? 5 : 8
    switch (int(kinds + (domain === 'json' ? 0 : 2))) {
      case 0:
        return null
      case 1:
        return chance(0.5)
      case 2:
        return domain === 'json' ? int(1000) - 500 : pick(numbers)
      case 3:
      case 4:
        return string()
      case 5:
        return Array.from({ length: int(5) }, () => value(domain, depth + 1))
      case 6:
      case 7:
        return record(domain, depth)
      default:
        return exotic(domain)
    }
  }

  /** What JSON cannot carry: structured-clone types, and (for `any`) functions and symbols. */
  function exotic(domain: Domain): unknown {
    const list: (() => unknown)[] = [
      () => undefined,
      () => BigInt(int(1e9)) ** 3n,
      () => new Date(int(2 ** 40)),
      () => new Uint8Array(int(64)),
      () => new Map([[1, 2]]),
    ]
    if (domain === 'any')
      list.push(
        () => () => 1,
        () => Symbol('fuzz'),
        () => new Error('thrown'),
      )
    return pick(list)()
  }

  return { seed, next, int, pick, chance, hex, string, huge, record, value }
}

/** The generator of case `index`. */
export const fuzzCase = (seed: number, index: number) => fuzzer(mix(seed, index))

/** Describes a generated input for a failure message: shape and values, cut short, never running its code. */
export function show(value: unknown, limit = 600): string {
  const seen = new WeakSet<object>()
  let text: string
  try {
    text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return `${v}n`
      if (typeof v === 'function') return '[function]'
      if (typeof v === 'symbol') return '[symbol]'
      if (v === undefined) return '[undefined]'
      if (typeof v === 'string' && v.length > 80) return `${v.slice(0, 40)}…(${v.length} chars)`
      if (Array.isArray(v) && v.length > 20) return [...v.slice(0, 5), `…(${v.length} items)`]
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[seen]'
        seen.add(v)
      }
      return v
    })
  } catch (error) {
    text = `[unprintable: ${(error as Error).message}]`
  }
  return text.length > limit ? `${text.slice(0, limit)}…` : text
}

/** Runs `count` cases; a failure names the seed, the case and its input, so it can be replayed. */
export async function runCases<T>(
  name: string,
  count: number,
  generate: (f: Fuzz, index: number) => T,
  check: (input: T, index: number) => Promise<void> | void,
  options: { seed?: number; concurrency?: number } = {},
): Promise<void> {
  const seed = options.seed ?? fuzzSeed
  const concurrency = options.concurrency ?? 1
  for (let start = 0; start < count; start += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, count - start) }, (_, k) => start + k)
    await Promise.all(
      batch.map(async (index) => {
        const input = generate(fuzzCase(seed, index), index)
        try {
          await check(input, index)
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error)
          throw new Error(`${name}: case ${index} of seed ${seed} (FUZZ_SEED=${seed}) failed on input ${show(input)}\n${message}`, { cause: error })
        }
      }),
    )
  }
}

/** The built-in prototypes' own keys: a fuzz run must leave them as they were. */
export function prototypeSnapshot(): string {
  const protos = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype, String: String.prototype }
  const probe = {} as Record<string, unknown>
  const inherited = ['polluted', 'isAdmin', 'a', 'x'].filter((key) => key in probe)
  return JSON.stringify({ ...Object.fromEntries(Object.entries(protos).map(([name, p]) => [name, Reflect.ownKeys(p).map(String).sort()])), inherited })
}

/**
 * Records errors nobody caught while a suite runs: Node's uncaught exceptions and unhandled
 * rejections, and in happy-dom the window's `error` events too (it reports a throwing event
 * listener there, not to Node).
 */
export function watchUncaught() {
  const caught: unknown[] = []
  const onError = (error: unknown) => void caught.push(error)
  const onEvent = (event: Event) => void caught.push((event as ErrorEvent).error ?? (event as PromiseRejectionEvent).reason ?? event.type)
  const page = typeof window === 'undefined' ? undefined : window
  process.on('uncaughtException', onError)
  process.on('unhandledRejection', onError)
  page?.addEventListener('error', onEvent)
  page?.addEventListener('unhandledrejection', onEvent)
  return {
    caught,
    stop() {
      process.off('uncaughtException', onError)
      process.off('unhandledRejection', onError)
      page?.removeEventListener('error', onEvent)
      page?.removeEventListener('unhandledrejection', onEvent)
    },
  }
}
