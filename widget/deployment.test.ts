// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { buildDeployment, metaDeployment, resolveDeployment } from './deployment.ts'

const sameOrigin = (origin: string) => ({
  wallet: `${origin}/api/v2`,
  smartAccount: `${origin}/api/v1`,
  ramp: `${origin}/v1`,
  appConfig: `${origin}/api/v1`,
  onramp: `${origin}/onramp`,
})

const setMeta = (name: string, content: string) => {
  const meta = document.createElement('meta')
  meta.name = name
  meta.content = content
  document.head.append(meta)
}

beforeEach(() => {
  for (const meta of document.querySelectorAll('meta')) meta.remove()
  history.replaceState(null, '', '/widget/')
  vi.resetModules()
})
afterEach(() => vi.unstubAllGlobals())

test('by default every service and the on-ramp page are on the frame’s own origin', () => {
  expect(resolveDeployment('https://wallet.example')).toEqual(sameOrigin('https://wallet.example'))
  expect(resolveDeployment('http://localhost:8787', {}, {})).toEqual(sameOrigin('http://localhost:8787'))
})

test('a setting overrides its service only; a later source (the served page) wins over the build', () => {
  const built = { wallet: 'https://build.example/api/v2', ramp: 'https://ramp.example/v1/' }
  const served = { wallet: 'https://wallet.example/api/v2', onramp: 'https://pay.example/buy' }
  expect(resolveDeployment('https://frame.example', built, served)).toEqual({
    ...sameOrigin('https://frame.example'),
    wallet: 'https://wallet.example/api/v2',
    // A trailing slash would make the sdk's paths start with two.
    ramp: 'https://ramp.example/v1',
    onramp: 'https://pay.example/buy',
  })
  // Plain http is fine to this machine itself, from a frame on this machine (the sandbox).
  expect(resolveDeployment('http://localhost:8787', { appConfig: 'http://127.0.0.1:9000/api/v1' }).appConfig).toBe('http://127.0.0.1:9000/api/v1')
  // A value is used as parsed: stray spaces or a backslash do not end up in the paths.
  expect(resolveDeployment('https://frame.example', {}, { ramp: ' https://ramp.example/v1 ' }).ramp).toBe('https://ramp.example/v1')
})

test('a frame served over https never sends to plain http, not even to the visitor’s own machine', () => {
  // A leftover loopback URL in a production build would hand tokens to whatever listens on that port.
  expect(() => resolveDeployment('https://frame.example', { appConfig: 'http://127.0.0.1:9000/api/v1' })).toThrow(
    "wallet-kit: the frame's appConfig URL is not https (plain http only to this machine, from a frame on this machine)",
  )
})

test.each([
  ['a relative URL', '/api/v2', 'is not an absolute URL'],
  ['an empty value', '', 'is not an absolute URL'],
  ['plain http off this machine', 'http://wallet.example/api/v2', 'is not https (plain http only to this machine, from a frame on this machine)'],
  ['another scheme', 'javascript:alert(1)', 'is not https (plain http only to this machine, from a frame on this machine)'],
  ['a URL with credentials', 'https://user:hunter2@wallet.example/api/v2', 'carries credentials'],
  ['a URL with a query', 'https://wallet.example/api/v2?x=1', 'has a query or fragment'],
  ['a URL with an empty query', 'https://wallet.example/api/v2?', 'has a query or fragment'],
  ['a URL with a fragment', 'https://wallet.example/api/v2#x', 'has a query or fragment'],
])('%s is refused, naming the setting and why (and never echoing the value)', (_, value, why) => {
  const attempt = () => resolveDeployment('https://frame.example', {}, { wallet: value })
  expect(attempt).toThrow(`wallet-kit: the frame's wallet URL ${why}`)
  expect(attempt).not.toThrow(/hunter2/)
})

test('the build reads the WALLET_KIT_*_URL variables that are set, and nothing else', () => {
  const env = {
    WALLET_KIT_WALLET_URL: 'https://wallet.example/api/v2',
    WALLET_KIT_SMART_ACCOUNT_URL: 'https://aa.example/api/v1',
    WALLET_KIT_RAMP_URL: 'https://ramp.example/v1',
    WALLET_KIT_APP_CONFIG_URL: 'https://config.example/api/v1',
    WALLET_KIT_ONRAMP_URL: '',
    WALLET_KIT_CLIENT_SECRET: 'secret',
  }
  expect(buildDeployment(env)).toEqual({
    wallet: 'https://wallet.example/api/v2',
    smartAccount: 'https://aa.example/api/v1',
    ramp: 'https://ramp.example/v1',
    appConfig: 'https://config.example/api/v1',
  })
  expect(buildDeployment({})).toEqual({})
})

test('the served page names settings with <meta name="wallet-kit:…"> in its head; a misspelt one is an error', () => {
  setMeta('wallet-kit:wallet', 'https://wallet.example/api/v2')
  setMeta('wallet-kit:onramp', 'https://pay.example/buy')
  setMeta('description', 'not ours')
  expect(metaDeployment(document)).toEqual({ wallet: 'https://wallet.example/api/v2', onramp: 'https://pay.example/buy' })
  setMeta('wallet-kit:walletUrl', 'https://wallet.example/api/v2')
  expect(() => metaDeployment(document)).toThrow('wallet-kit: unknown <meta name="wallet-kit:walletUrl">')
})

test('the frame reads its settings once, when it starts: the query, messages and later changes to the page have no say', async () => {
  setMeta('wallet-kit:wallet', 'https://wallet.example/api/v2')
  // What a host page controls: the frame's query (it writes the iframe's src) and postMessage.
  history.replaceState(null, '', '/widget/?appId=demo&wallet=https://evil.example&walletUrl=https://evil.example&onramp=https://evil.example')
  const { deployment } = await import('./deployment.ts')
  const first = deployment()
  expect(first).toEqual({ ...sameOrigin(location.origin), wallet: 'https://wallet.example/api/v2' })
  window.dispatchEvent(
    new MessageEvent('message', { data: { wallet: 'https://evil.example', 'wallet-kit:wallet': 'https://evil.example' }, origin: 'https://host.example' }),
  )
  setMeta('wallet-kit:ramp', 'https://evil.example/v1')
  for (const meta of document.querySelectorAll('meta[name="wallet-kit:wallet"]')) meta.setAttribute('content', 'https://evil.example')
  expect(deployment()).toEqual(first)
})

test('the frame’s service client calls the deployment’s hosts, whatever its URL query says', async () => {
  setMeta('wallet-kit:appConfig', 'https://config.example/api/v1')
  history.replaceState(null, '', '/widget/?appId=demo&appConfig=https://evil.example/api/v1&origin=https://host.example')
  const fetch = vi.fn(async () => Response.json({ data: null }, { status: 500 }))
  vi.stubGlobal('fetch', fetch)
  vi.spyOn(console, 'error').mockImplementation(() => {})
  const { openServices } = await import('./core.ts')
  const { readParams } = await import('./params.ts')
  const { beginStart } = await import('./early.ts')
  await openServices(readParams(new URL(location.href)), beginStart(), undefined)
  expect(fetch).toHaveBeenCalled()
  for (const [input] of fetch.mock.calls as unknown as [RequestInfo | URL][])
    expect(String(input instanceof Request ? input.url : input)).toMatch(/^https:\/\/config\.example\/api\/v1\/apps\/config/)
})

test('a frame deployed with an invalid setting does not start: it fails with the reason', async () => {
  setMeta('wallet-kit:wallet', 'http://wallet.example/api/v2')
  const fetch = vi.fn()
  vi.stubGlobal('fetch', fetch)
  const { openServices } = await import('./core.ts')
  const { readParams } = await import('./params.ts')
  const { beginStart } = await import('./early.ts')
  await expect(openServices(readParams(new URL('https://frame.example/widget/?appId=demo')), beginStart(), undefined)).rejects.toThrow(
    "wallet-kit: the frame's wallet URL is not https",
  )
  expect(fetch).not.toHaveBeenCalled()
})
