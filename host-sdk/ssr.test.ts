import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { expect, test } from 'vitest'

/** Server-side rendering and plain Node: importing any entry touches no window or document. */
test('every entry imports in Node without a DOM', async () => {
  expect(typeof window).toBe('undefined')
  expect(typeof document).toBe('undefined')
  const entries = await Promise.all([import('./index.ts'), import('./element.ts'), import('./react/index.ts')])
  expect(entries.map((e) => Object.keys(e).sort())).toEqual([
    [
      'AtomicityNotSupportedError',
      'ChainDisconnectedError',
      'DisconnectedError',
      'InternalError',
      'InvalidParamsError',
      'LimitExceededError',
      'ProviderRpcError',
      'SwitchChainError',
      'UnauthorizedError',
      'UnknownBundleIdError',
      'UnsupportedMethodError',
      'UserRejectedRequestError',
      'createWalletKit',
      'currentKit',
    ],
    ['defineWalletKitElement'],
    ['ConnectButton', 'WalletKitProvider', 'useWalletKit'],
  ])
})

test('createWalletKit on a server says it runs in a browser only (after checking the options)', async () => {
  const { createWalletKit } = await import('./index.ts')
  expect(() => createWalletKit({} as never)).toThrow('appId is required')
  expect(() => createWalletKit({ appId: 'demo' })).toThrow('createWalletKit runs in a browser only')
})

test('the React wrapper renders on the server: a Connect button, no kit yet', async () => {
  const { ConnectButton, WalletKitProvider, useWalletKit } = await import('./react/index.ts')
  // biome-ignore lint/correctness/noComponentHookFactories: the hook comes from the dynamic import (importing must happen inside a test, without a DOM)
  function Status() {
    const { status, provider } = useWalletKit()
    return createElement('p', null, `${status} ${provider === null}`)
  }
  const html = renderToString(createElement(WalletKitProvider, { options: { appId: 'demo' } }, createElement(ConnectButton), createElement(Status)))
  expect(html).toContain('>Connect</button>')
  expect(html).toContain('<p>loading true</p>')
})

test('providers may not be nested; the hook needs a provider', async () => {
  const { WalletKitProvider, useWalletKit } = await import('./react/index.ts')
  const options = { appId: 'demo' }
  expect(() => renderToString(createElement(WalletKitProvider, { options }, createElement(WalletKitProvider, { options })))).toThrow(
    'WalletKitProvider may not be nested: keep one at the root of the app',
  )
  // biome-ignore lint/correctness/noComponentHookFactories: the hook comes from the dynamic import (importing must happen inside a test, without a DOM)
  const Orphan = () => {
    useWalletKit()
    return null
  }
  expect(() => renderToString(createElement(Orphan))).toThrow('useWalletKit must be used inside <WalletKitProvider>')
})
