import { expect, test } from 'vitest'
import { SdkError, createClient, createWalletClient, hosts, resolveBaseUrls } from './index.ts'

// env 'production' has no built-in hosts (the real host names are not ours to publish): a production client that quietly
// talked to http://localhost:8787 would hand live credentials to whatever listens there.

const remote = {
  wallet: 'https://wallet.example/api/v2',
  smartAccount: 'https://aa.example/api/v1',
  ramp: 'https://ramp.example/v1',
  appConfig: 'https://wallet.example/api/v1',
}

const failure = (create: () => unknown) => {
  try {
    create()
  } catch (error) {
    return error as SdkError
  }
  throw new Error('created without an error')
}

test('production without base URLs fails at creation, naming what is missing', () => {
  expect(hosts.production).toEqual({})
  const error = failure(() => createClient({ appId: 'demo', env: 'production' }))
  expect(error).toBeInstanceOf(SdkError)
  expect(error.code).toBe('INVALID_CONFIG')
  expect(error.message).toBe(
    "env 'production' has no built-in service hosts: pass baseUrls.wallet, baseUrls.smartAccount, baseUrls.ramp and baseUrls.appConfig",
  )
  expect(failure(() => createWalletClient({ env: 'production', baseUrls: { wallet: remote.wallet } })).message).toBe(
    "env 'production' has no built-in service hosts: pass baseUrls.smartAccount, baseUrls.ramp and baseUrls.appConfig",
  )
  expect(() => resolveBaseUrls('production')).toThrow(/no built-in service hosts/)
})

test('production with every base URL works, and never points at the sandbox', () => {
  const client = createClient({ appId: 'demo', env: 'production', clientSecret: 'live-secret', baseUrls: remote })
  expect(client.baseUrls).toEqual(remote)
  expect(JSON.stringify(client.baseUrls)).not.toContain('localhost')
})

test.each([
  ['a plain-HTTP wallet host', { clientSecret: 's', baseUrls: { wallet: 'http://wallet.example/api/v2' } }, 'http://wallet.example'],
  ['a LAN address', { clientSecret: 's', baseUrls: { wallet: 'http://192.168.1.20:8787/api/v2' } }, 'http://192.168.1.20:8787'],
  ['a name that only looks local', { clientSecret: 's', baseUrls: { wallet: 'http://localhost.evil.example/api/v2' } }, 'http://localhost.evil.example'],
  ['the ramp client secret to a plain-HTTP ramp host', { rampableClientSecret: 'r', baseUrls: { ramp: 'http://ramp.example/v1' } }, 'http://ramp.example'],
])('a client secret is never sent over plain HTTP off this machine: %s fails at creation', (_, config, origin) => {
  const error = failure(() => createClient({ appId: 'demo', ...config }))
  expect(error.code).toBe('INVALID_CONFIG')
  expect(error.message).toBe(`A client secret is never sent over plain HTTP: ${origin} is not https and not this machine (localhost, 127.0.0.1, [::1])`)
})

test.each([
  ['the local sandbox', {}],
  ['127.0.0.1', { wallet: 'http://127.0.0.1:8787/api/v2' }],
  ['[::1]', { wallet: 'http://[::1]:8787/api/v2' }],
  ['https anywhere', { wallet: 'https://wallet.example/api/v2' }],
])('a client secret may go to %s', (_, baseUrls) => {
  expect(() => createClient({ appId: 'demo', clientSecret: 's', rampableClientSecret: 'r', baseUrls })).not.toThrow()
})

test('without a secret, plain HTTP hosts are allowed (the widget, on its own origin)', () => {
  expect(() => createClient({ appId: 'demo', baseUrls: { wallet: 'http://wallet.example/api/v2' } })).not.toThrow()
})
