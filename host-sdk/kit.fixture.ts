import { checkParams, checkRpcRequest, methodOf, PROTOCOL_VERSION } from '../bridge/index.ts'
import { prototypeSnapshot } from '../bridge/fuzz.fixture.ts'
import { penpalPeer, type Reply } from '../bridge/penpal-peer.fixture.ts'
import { announce } from './eip6963.ts'
import { createWalletKit, type KitEvent } from './kit.ts'
import type { EIP1193Provider } from './provider.ts'

const events = ['connect', 'disconnect', 'chainChanged', 'accountsChanged', 'message'] as const

/**
 * What the widget answers at its surface: the protocol version and offered chains, the method
 * table's checks (bridge/rpc-methods.ts), a result for reads and a 4001 for anything that would
 * need the user.
 */
function widgetAnswer(name: string, args: unknown[]): Reply {
  if (name === 'hello') return { value: { result: { protocol: PROTOCOL_VERSION, chains: [31337, 31338] } } }
  if (name !== 'request') return { value: { result: null } }
  const request = args[0] as { method: string; params?: unknown }
  const known = checkRpcRequest(request) === undefined ? methodOf(request.method) : undefined
  if (!known) return { value: { error: { code: 4200, message: 'Unsupported method' } } }
  const bad = checkParams(known[0], request.params)
  if (bad) return { value: { error: { code: -32602, message: bad } } }
  if (request.method === 'eth_chainId') return { value: { result: '0x7a69' } }
  if (request.method === 'eth_accounts') return { value: { result: [] } }
  return { value: known[1] === 'read' ? { result: '0x1' } : { error: { code: 4001, message: 'User rejected the request' } } }
}

/**
 * Test support: a real kit (createWalletKit) in happy-dom whose frame is the Penpal-protocol
 * emulator of bridge/penpal-peer.fixture.ts answering as the widget does, shaken hands and settled, with everything it could change
 * recorded: provider and kit events, the frame's visibility, page scroll, opened URLs.
 */
export async function startKit(options: { welcome?: { value: unknown; isError?: boolean } } = {}) {
  const providerOrigin = 'http://provider.test'
  const frame = penpalPeer({ role: 'frame', origin: providerOrigin, answer: widgetAnswer })
  // The frame's answer to the host's hello, in place of the widget's (bridge/version.ts).
  if (options.welcome) frame.reply = (name) => (name === 'hello' ? options.welcome : undefined)
  const kit = createWalletKit({ appId: 'demo', providerUrl: providerOrigin, handshakeTimeout: 5_000 })
  const iframe = document.querySelector<HTMLIFrameElement>('[data-testid=wallet-kit-frame]')!
  Object.defineProperty(iframe, 'contentWindow', { value: frame.window, configurable: true })
  const emitted: [string, unknown][] = []
  for (const event of events) kit.provider.on(event, ((payload: unknown) => emitted.push([event, payload])) as never)
  for (const event of ['open', 'close'] as KitEvent[]) kit.on(event, ((payload: unknown) => emitted.push([event, payload])) as never)
  const opened: unknown[] = []
  const open = window.open
  const assign = Object.getOwnPropertyDescriptor(location, 'assign')
  window.open = ((...args: unknown[]) => {
    opened.push(['open', ...args])
    return null
  }) as typeof window.open
  Object.defineProperty(location, 'assign', { value: (url: unknown) => opened.push(['assign', url]), configurable: true })

  frame.start()
  if (!options.welcome) {
    await kit.provider.request({ method: 'eth_chainId' })
    // The handshake's own calls (hello, setWallets, eth_accounts, eth_chainId) have all been answered.
    while (frame.calls.length < 5) await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await new Promise((resolve) => setTimeout(resolve, 20))

  /** Everything a message could change at the host, but the calls the host made to the frame. */
  const snapshot = () =>
    JSON.stringify({
      style: iframe.getAttribute('style'),
      overflow: document.documentElement.style.overflow,
      emitted,
      opened,
      posted: frame.posted.length,
      orphans: frame.orphans,
      prototypes: prototypeSnapshot(),
    })
  return {
    kit,
    frame,
    emitted,
    snapshot,
    stop() {
      kit.destroy()
      frame.close()
      window.open = open
      if (assign) Object.defineProperty(location, 'assign', assign)
      else delete (location as { assign?: unknown }).assign
    },
  }
}

type WalletRequest = { method: string; params?: unknown }

/**
 * A browser wallet announced in the kit's page (EIP-6963) and connected from the frame's modal,
 * `answer` its requests. `asked` records what it was asked after it connected; `connected` is the
 * frame's view of the connection; `stop` takes the wallet and the kit away.
 */
export async function connectBrowserWallet(setup: Awaited<ReturnType<typeof startKit>>, answer: (args: WalletRequest) => unknown) {
  const asked: WalletRequest[] = []
  const wallet = {
    async request(args: WalletRequest) {
      asked.push(args)
      return answer(args)
    },
    on() {},
    removeListener() {},
  } as unknown as EIP1193Provider
  const unannounce = announce({ uuid: 'w-uuid', name: 'W', icon: 'data:image/png;base64,AAAA', rdns: 'com.w' }, wallet)
  window.dispatchEvent(new Event('eip6963:requestProvider'))
  const connected = await setup.frame.call(['connectExternal'], ['com.w'])
  asked.length = 0
  return {
    asked,
    connected,
    stop() {
      unannounce()
      setup.stop()
    },
  }
}
