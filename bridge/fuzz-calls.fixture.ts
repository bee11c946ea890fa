import { hostEvents, views } from './methods.ts'
import { checkParams, methodOf, rpcReads } from './rpc-methods.ts'
import { prototypeKeys, type Domain, type Fuzz } from './fuzz.fixture.ts'
import { PROTOCOL_VERSION } from './version.ts'

/**
 * Test support: malformed calls of the bridge contract, for the fuzz suites of both sides. Each is
 * malformed by the contract itself (EIP-1474 types, the arities and names of methods.ts), not by
 * what the checkers happen to accept, so a checker that lets one through is caught. `expect: 'any'`
 * marks the few that may succeed without changing anything (a read the chain judges).
 */
export type FuzzCall = { name: string; args: unknown[]; expect: 'error' | 'any' }
/** `level: 'meaning'`: the method table lets it through (the host sends it on); the frame's handler must refuse it. */
export type FuzzRequest = { request: unknown; expect: 'error' | 'any'; level?: 'shape' | 'meaning' }

const other = '0x000000000000000000000000000000000000dEaD'
const tx = (from: string) => ({ from, to: other, value: '0x1', data: '0x', gas: '0x5208', nonce: '0x0', chainId: '0x7a69', maxFeePerGas: '0x3b9aca00' })
const typedData = {
  types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], Mail: [{ name: 'to', type: 'address' }] },
  primaryType: 'Mail',
  domain: { chainId: 31337 },
  message: { to: other },
}

/** Values that are not of an EIP-1474 type (`null` only where the field is required). */
const notAddress = (f: Fuzz, account: string) =>
  f.pick<unknown>(['0x123', 'zz', `${account}0`, account.slice(0, -1), account.slice(2), '', f.pick(prototypeKeys), 12, {}, [], true])
const notQuantity = (f: Fuzz) =>
  f.pick<unknown>(['0x', 'zz', '0xg', `0x${'f'.repeat(65)}`, '-0x1', '1e3', ' 0x1', '0x1 ', 12, 1.5, {}, [], true, f.pick(prototypeKeys)])
const notHex = (f: Fuzz) => f.pick<unknown>(['0x1', '0x123', 'zz', 'hello', '0xzz', 12, {}, [], true])
const notString = (f: Fuzz) => f.pick<unknown>([12, null, true, {}, [], -0, Number.NaN])
const notObject = (f: Fuzz) => f.pick<unknown>(['x', 12, [], true, null, f.pick(prototypeKeys)])
const notTypedData = (f: Fuzz) => f.pick<unknown>(['not json', '{', '[]', 12, true, [], {}, JSON.stringify({ types: {}, primaryType: 'Mail' })])

/** Sets one field of a copy (the field may be a prototype name: set as data, as JSON.parse does). */
const set = (value: Record<string, unknown>, key: string, to: unknown) => {
  const copy = { ...value }
  Object.defineProperty(copy, key, { value: to, enumerable: true, writable: true, configurable: true })
  return copy
}
const drop = (value: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(value).filter(([k]) => k !== key))
const breakTx = (f: Fuzz, account: string) => {
  const t = tx(account)
  const field = f.pick(['from', 'to', 'value', 'gas', 'nonce', 'chainId', 'maxFeePerGas', 'data', 'input'] as const)
  return set(t, field, field === 'from' || field === 'to' ? notAddress(f, account) : field === 'data' || field === 'input' ? notHex(f) : notQuantity(f))
}
/** An EIP-5792 call ({ to, data, value }) with one field broken. */
const breakCall = (f: Fuzz, account: string) => {
  const field = f.pick(['to', 'value', 'data'] as const)
  return set({ to: other, value: '0x1', data: '0x' }, field, field === 'to' ? notAddress(f, account) : field === 'data' ? notHex(f) : notQuantity(f))
}
/** Well-typed but wrong for this wallet: the frame's handlers must refuse them too. */
const wrongTx = (f: Fuzz, account: string) => f.pick([set(tx(account), 'from', other), drop(tx(account), 'to'), set(tx(account), 'chainId', '0x1')])

type Breaker = (f: Fuzz, account: string) => unknown[]
/** `shape`: params outside the method's schema (bridge/rpc-methods.ts); `meaning`: well-typed, but no wallet may act on them. */
type Breakers = { shape: readonly Breaker[]; meaning: readonly Breaker[] }
const switchChain: Breakers = { shape: [(f) => [{ chainId: notQuantity(f) }], () => [{}], (f) => [notObject(f)], () => [{ chainId: '0x0' }]], meaning: [] }
const sendTx: Breakers = { shape: [(f, a) => [breakTx(f, a)], (f) => [notObject(f)]], meaning: [(f, a) => [wrongTx(f, a)]] }
const callTx: Breakers = { shape: [(f, a) => [breakTx(f, a), 'latest'], (f) => [notObject(f)]], meaning: [] }
const balance: Breakers = { shape: [(f, a) => [notAddress(f, a), 'latest']], meaning: [] }

/** One template per frame method and checked read, and the ways to break it. */
const breakers: Readonly<Record<string, Breakers>> = {
  wallet_switchEthereumChain: switchChain,
  wallet_addEthereumChain: switchChain,
  personal_sign: {
    shape: [(f, a) => [notString(f), a], (f, a) => ['0x68656c6c6f', notAddress(f, a)]],
    meaning: [(_, a) => ['0x123', a], () => ['0x68656c6c6f', other]],
  },
  eth_signTypedData_v4: {
    shape: [
      (f, a) => [notAddress(f, a), typedData],
      (f, a) => [a, notTypedData(f)],
      (f, a) => [
        a,
        f.pick([
          { ...typedData, types: 'x' },
          { ...typedData, message: 5 },
          { ...typedData, primaryType: 12 },
        ]),
      ],
      // Valid EIP-712, but no JSON: postMessage carries a BigInt, JSON.stringify cannot.
      (_, a) => [a, { ...typedData, types: { ...typedData.types, Mail: [{ name: 'v', type: 'uint256' }] }, message: { v: 5n } }],
    ],
    meaning: [
      (_, a) => [a, { ...typedData, primaryType: 'Missing' }],
      (_, a) => [a, { ...typedData, message: { to: 'not an address' } }],
      (_, a) => [a, { ...typedData, domain: { chainId: 1 } }],
      () => [other, typedData],
    ],
  },
  eth_sendTransaction: sendTx,
  eth_signTransaction: sendTx,
  wallet_getCapabilities: { shape: [(f, a) => [notAddress(f, a)], (f, a) => [a, [notQuantity(f)]]], meaning: [] },
  wallet_sendCalls: {
    shape: [
      (f, a) => [{ from: notAddress(f, a), calls: [{ to: other }] }],
      (f, a) => [{ from: a, chainId: notQuantity(f), calls: [{ to: other }] }],
      (f) => [notObject(f)],
      (f, a) => [{ from: a, calls: f.pick<unknown>(['x', 12, true, {}]) }],
      (f, a) => [{ from: a, calls: [{ to: other }, breakCall(f, a)] }],
    ],
    meaning: [
      (_, a) => [{ from: a, calls: [] }],
      (_, a) => [{ from: a, calls: Array.from({ length: 11 }, () => ({ to: other })) }],
      (_, a) => [{ from: a, atomicRequired: true, calls: [{ to: other }] }],
    ],
  },
  wallet_getCallsStatus: { shape: [(f) => [notString(f)]], meaning: [] },
  wallet_requestPermissions: { shape: [(f) => [notObject(f)]], meaning: [() => [{ eth_accounts: {}, other: {} }], () => [{ wallet_snaps: {} }]] },
  wallet_revokePermissions: { shape: [(f) => [notObject(f)]], meaning: [() => [{}]] },
  eth_call: callTx,
  eth_estimateGas: callTx,
  eth_getBalance: balance,
  eth_getCode: balance,
}

const broken = Object.entries(breakers).flatMap(([method, { shape, meaning }]) => [
  ...shape.map((fn) => [method, 'shape', fn] as const),
  ...meaning.map((fn) => [method, 'meaning', fn] as const),
])
const frameMethods = [...Object.keys(breakers), 'eth_requestAccounts', 'eth_accounts', 'eth_chainId', 'net_version', 'wallet_getPermissions']
const refused = [
  'eth_sign',
  'eth_sendUnsignedTransaction',
  'eth_sendTransactionSync',
  'anvil_setBalance',
  'evm_mine',
  'hardhat_impersonateAccount',
  'debug_traceCall',
]
/** The reads whose params only the chain's RPC judges (eth_blockNumber is one): any values, up to ten. */
const unchecked = [...rpcReads].filter((m) => methodOf(m)?.[0] === methodOf('eth_blockNumber')?.[0])

/** The arity a method's schema allows, [required, all]: the counts its params reader does not refuse as a count. */
function arity(method: string): [number, number] {
  const schema = methodOf(method)![0]
  const fits = Array.from({ length: 13 }, (_, n) => !checkParams(schema, Array(n).fill(undefined))?.startsWith('expected '))
  return [fits.indexOf(true), fits.lastIndexOf(true)]
}

/** An EIP-1193 request object that is malformed somewhere (or, `any`, a read with params only the chain can judge). */
export function rpcRequest(f: Fuzz, account: string, domain: Domain = 'clone'): FuzzRequest {
  const known = () => f.pick(frameMethods)
  switch (f.int(10)) {
    case 0:
      return { request: f.pick<unknown>([null, undefined, 'eth_accounts', 12, [], [{ method: 'eth_accounts' }], true, f.value(domain)]), expect: 'error' }
    case 1:
      return { request: { method: f.pick<unknown>([12, null, {}, [], '', 'x'.repeat(129 + f.int(1000)), f.value(domain)]) }, expect: 'error' }
    case 2: {
      const method = f.pick([...refused, ...prototypeKeys, `${f.string()}_${f.string()}`, f.string()])
      return { request: { method, params: f.value(domain) }, expect: 'error' }
    }
    case 3:
      return {
        request: { method: f.pick([...frameMethods, ...unchecked]), params: f.pick<unknown>([null, 'x', 12, true, f.record(domain, 2)]) },
        expect: 'error',
      }
    case 4: {
      const method = known()
      const [required, all] = arity(method)
      const length = f.chance(0.5) && required > 0 ? f.int(required) : all + 1 + f.int(3)
      return { request: { method, params: Array.from({ length }, () => f.value(domain, 2)) }, expect: 'error' }
    }
    case 5:
      return { request: { method: unchecked[0], params: Array.from({ length: 11 + f.int(5) }, () => 0) }, expect: 'error' }
    case 6:
      return { request: { method: f.pick(unchecked), params: Array.from({ length: f.int(4) }, () => f.value(domain, 2)) }, expect: 'any' }
    default: {
      const [method, level, breaker] = f.pick(broken)
      return { request: { method, params: breaker(f, account) }, expect: 'error', level }
    }
  }
}

const withArity = (f: Fuzz, args: unknown[]): unknown[] => (f.chance(0.15) ? (f.chance(0.5) ? [] : [...args, f.value('clone', 2)]) : args)

const wallet = (i: number) => ({
  id: `w${i}`,
  name: `Wallet ${i}`,
  icon: 'data:image/png;base64,AAAA',
  connector: 'injected',
  installed: true,
  rdns: `com.w${i}`,
})
const brokenWallet = (f: Fuzz) => {
  const field = f.pick(['id', 'name', 'icon', 'connector', 'installed', 'rdns'] as const)
  const bad: Record<(typeof field)[number] | string, unknown[]> = {
    id: ['', 12, null, 'x'.repeat(257)],
    name: ['', 12, null, 'x'.repeat(101)],
    icon: ['https://tracker.example/i.png', 'javascript:alert(1)', 'data:text/html,<script>', 12, `data:image/png;base64,${'A'.repeat(100_000)}`],
    connector: ['', 'evil', 12, null],
    installed: ['true', 1, null],
    rdns: [12, {}, null],
  }
  return set(wallet(1), field, f.pick(bad[field]!))
}

/** A call of a widget method (WidgetMethods) with arguments the contract refuses. */
export function widgetCall(f: Fuzz, account: string): FuzzCall {
  const name = f.pick(['hello', 'request', 'open', 'close', 'disconnect', 'setWallets', 'request'])
  if (name === 'request') {
    const { request, expect } = rpcRequest(f, account)
    const args = withArity(f, [request])
    return { name, args, expect: args.length !== 1 ? 'error' : expect }
  }
  if (name === 'close' || name === 'disconnect') return { name, args: Array.from({ length: 1 + f.int(3) }, () => f.value()), expect: 'error' }
  const bad: Record<string, () => unknown[]> = {
    hello: () =>
      f.pick([
        [notObject(f)],
        [{ protocol: f.pick<unknown>([1.5, '1', null, Number.NaN, `${PROTOCOL_VERSION}`, [PROTOCOL_VERSION]]) }],
        [{ protocol: f.pick([0, -1, PROTOCOL_VERSION + 1, 2 ** 31, -(2 ** 53)]), sdkVersion: f.string() }],
        [f.record('clone', 1)],
      ]),
    open: () => [f.pick<unknown>(['Connect', 'connect ', 'settings', ...prototypeKeys, 12, null, {}, [...views], 'transaction_confirmation'])],
    setWallets: () =>
      f.pick([
        [f.pick<unknown>(['x', 12, null, {}, true, f.pick(prototypeKeys)])],
        [Array.from({ length: 51 + f.int(10) }, (_, i) => wallet(i))],
        [[wallet(0), brokenWallet(f), wallet(2)].slice(f.int(2))],
        [[f.value()]],
      ]),
  }
  return { name, args: withArity(f, bad[name]!()), expect: 'error' }
}

const badUrls = [
  'javascript:alert(1)',
  ' java\tscript:alert(1)',
  'JAVASCRIPT:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'intent://x#Intent;end',
  'http://evil.example/',
  'http://127.0.0.1.evil.example/',
  '//evil.example',
  '/relative',
  '',
  'ms-settings:',
  'blob:https://evil.example/1',
  'wcx:abc',
  `https://example.com/${'a'.repeat(5000)}`,
]

/** A call of a host method (HostMethods) with arguments the contract refuses. */
export function hostCall(f: Fuzz): FuzzCall {
  const name = f.pick(['setVisible', 'emit', 'connectExternal', 'openUrl'])
  const bad: Record<string, () => unknown[]> = {
    setVisible: () => [f.pick<unknown>(['true', 1, 0, null, {}, [], 'false'])],
    emit: () => [f.pick<unknown>(['accountschanged', 'connect ', 'open', 'close', ...prototypeKeys, 12, null, [...hostEvents]]), f.value()],
    // Any string names no wallet in a page that has none.
    connectExternal: () => [f.pick<unknown>(['', 12, null, {}, 'x'.repeat(257), ...prototypeKeys, f.string() || 'x'])],
    openUrl: () =>
      f.chance(0.7)
        ? [f.chance(0.8) ? f.pick(badUrls) : f.value(), f.pick(['_blank', '_top'])]
        : ['https://example.com', f.pick<unknown>(['_self', '_parent', '', 12, null])],
  }
  const args = bad[name]!()
  return { name, args: f.chance(0.15) ? (f.chance(0.5) ? args.slice(0, -1) : [...args, f.value()]) : args, expect: 'error' }
}

/** A name that is no bridge method: prototype keys, near misses, noise. */
export const unknownName = (f: Fuzz): string => f.pick([...prototypeKeys, 'Hello', 'request ', 'steal', 'eval', '', f.string()])
