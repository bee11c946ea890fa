import { prototypeSnapshot } from '../bridge/fuzz.fixture.ts'
import { createWalletKit, type KitEvent } from './kit.ts'
import { penpalFrame } from './penpal-frame.fixture.ts'

const events = ['connect', 'disconnect', 'chainChanged', 'accountsChanged', 'message'] as const

/**
 * Test support: a real kit (createWalletKit) in happy-dom whose frame is the Penpal-protocol
 * emulator of penpal-frame.fixture.ts, shaken hands and settled, with everything it could change
 * recorded: provider and kit events, the frame's visibility, page scroll, opened URLs.
 */
export async function startKit(options: { welcome?: { value: unknown; isError?: boolean } } = {}) {
  const providerOrigin = 'http://provider.test'
  const frame = penpalFrame(providerOrigin)
  // The frame's answer to the host's hello, in place of the widget's (bridge/version.ts).
  if (options.welcome) frame.reply = (name) => (name === 'hello' ? options.welcome : undefined)
  const kit = createWalletKit({ appId: 'demo', providerUrl: providerOrigin, handshakeTimeout: 5_000 })
  const iframe = document.querySelector<HTMLIFrameElement>('[data-testid=wallet-kit-frame]')!
  Object.defineProperty(iframe, 'contentWindow', { value: frame.frameWindow, configurable: true })
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
    while (frame.hostCalls.length < 5) await new Promise((resolve) => setTimeout(resolve, 5))
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
