import { createRoot } from 'react-dom/client'
import { ErrorCode, fail, offeredChains } from '../../bridge/index.ts'
import type { Confirmations, Decisions } from '../confirmation.ts'
import { loadMessages } from '../i18n.ts'
import { isAllowedOrigin } from '../origins.ts'
import type { FrameParams } from '../params.ts'
import { openServices, start } from '../core.ts'
import { pageConfig } from '../config-read.ts'
import { beginStart } from '../early.ts'
import { render } from '../ui.tsx'
import type { Confirmation } from '../ui-state.ts'
import type { HostPort } from '../host-port.ts'
import type { Wallet } from '../wallet.ts'
import { type FrameMessage, openPopupChannel, type PopupChannel, type PopupChannelHandlers } from '../../sdk/popup-channel.ts'
import { WindowNotice } from './WindowNotice.tsx'

/** The secure window has no host page: nothing to tell, no browser wallet to reach. */
const noHost: HostPort = {
  setVisible() {},
  emit() {},
  connectExternal: async () => fail(ErrorCode.unsupportedMethod, 'Browser wallets connect in the page, not in the secure window'),
  openUrl: (url) => void window.open(url, '_blank', 'noopener'),
}

const notice = (text: 'notOpenedByWallet' | 'noApp' | 'windowFailed' | 'returning') =>
  createRoot(document.getElementById('root')!).render(<WindowNotice text={text} />)

/**
 * The secure window: a popup on the provider origin that the wallet frame opened from a click. It
 * runs the same routes as the frame (connect, confirm) on its own first-party session store, and
 * talks to the frame only through the popup channel (sdk/popup-channel.ts). It serves nobody but the frame
 * that opened it: a page anywhere else that opens this URL (its Referer is not the provider's own)
 * gets a notice and nothing else, so it cannot have a signed-in user handed to a channel it made.
 */
export async function bootSecureWindow(params: FrameParams) {
  document.documentElement.dataset.presentation = 'window'
  await loadMessages(params.locale)
  const channelId = new URLSearchParams(location.hash.slice(1)).get('channel')
  // The channel name leaves the address bar and the history at once.
  history.replaceState(null, '', location.pathname + location.search)
  let referrer: string | null = null
  try {
    referrer = new URL(document.referrer).origin
  } catch {}
  if (!channelId || referrer !== location.origin) return notice('notOpenedByWallet')

  const channel = openPopupChannel(channelId, 'popup')
  addEventListener('pagehide', () => channel.postOnUnload({ type: 'closed' }))
  const services = await openServices(params, beginStart(), pageConfig(params))
  if (!services) return notice('noApp')
  // The service refused the channel (too many opened from this network, say): the frame learns it
  // too, and this window says so rather than stay blank.
  const said = await channel.post({ type: 'hello' }).then(
    () => true,
    () => false,
  )
  if (!said) return notice('windowFailed')

  let started = false
  // The export page hears the frame through this one reader: the server gives the key's handoff to
  // one read only, so a second reader starting from the first message would find it spent.
  const heard: FrameMessage[] = []
  const pages = new Set<PopupChannelHandlers<'popup'>>()
  const relay: PopupChannel<'popup'> = {
    ...channel,
    listen(handlers) {
      for (const message of heard) handlers.message(message)
      pages.add(handlers)
      return () => void pages.delete(handlers)
    },
  }
  const stop = channel.listen({
    // The channel is over (it outlived its lifetime): the frame can no longer hear this window.
    ended: () => window.close(),
    message(message) {
      if (message.type === 'done') return window.close()
      if (started) {
        heard.push(message)
        for (const page of pages) page.message(message)
        return
      }
      // The client already dropped anything that is not one of the frame's messages.
      if (message.type !== 'open') return
      const { purpose, hostOrigin } = message
      // The frame already checked it; the window shows it, so it checks it again.
      if (!isAllowedOrigin(hostOrigin, services.config.allowedOrigins)) return notice('noApp')
      started = true
      document.title = `Wallet Kit · ${hostOrigin}`
      if (purpose === 'export-key') return void exportKey()
      void run(purpose, hostOrigin)
    },
  })

  // The key, shown here and nowhere else: no wallet core, only the page and its one call.
  async function exportKey() {
    const { showWindowExport } = await import('../profile/export-key/WindowExport.tsx')
    showWindowExport({ channel: relay, context: services!.client.context!, locale: params.locale, close: () => window.close() })
  }

  async function run(purpose: 'confirm' | 'login', hostOrigin: string) {
    const ctx = await start({ params, hostOrigin, ...services!, chains: offeredChains(services!.config.chains, params.chains), host: noHost })
    const confirmations = purpose === 'confirm' ? remoteConfirmations(ctx.wallet, channel) : ctx.confirmations
    render({
      ...ctx,
      confirmations,
      config: services!.config,
      locale: params.locale,
      presentation: 'window',
      mode: 'popup',
      persistent: services!.owner.persistent,
      secure: null,
    })
    if (purpose === 'confirm') return followFrame(ctx.confirmations, channel)
    // Sign-in: a session this window already has (first-party) is handed over at once; otherwise
    // the user signs in here, and it is handed over when the connect modal closes with one.
    const handOff = async () => {
      stop()
      notice('returning')
      await services!.client.auth.handoff({ channel: channel.id })
      // The frame says done once it has the session; without an answer the window closes anyway.
      channel.listen({ message: (m) => m.type === 'done' && window.close(), ended: () => window.close() })
      setTimeout(() => window.close(), 5000)
    }
    if (ctx.wallet.ui.get().session) return void handOff()
    ctx.wallet.open('connect')
    const unsubscribe = ctx.wallet.ui.subscribe(() => {
      const { session, view } = ctx.wallet.ui.get()
      if (view !== null) return
      unsubscribe()
      // Closed without signing in: the window has nothing more to do (the frame hears it closed).
      if (!session) return window.close()
      void handOff()
    })
  }
}

/** The request on screen is the frame's: its state arrives on the channel, in order. */
function followFrame(confirmations: Confirmations, channel: PopupChannel<'popup'>) {
  channel.listen({
    ended: () => window.close(),
    message(message) {
      // The frame's own request (its id and kind checked by the client): the window shows it as it is.
      if (message.type === 'state') confirmations.mirror(message.confirmation as Confirmation, message.queued)
    },
  })
}

/** The window's buttons decide; the frame carries the decision out (it holds the request and its signer). */
function remoteConfirmations(wallet: Wallet, channel: PopupChannel<'popup'>): Decisions {
  const decide = (decision: { approve: boolean; all?: boolean }) => {
    const shown = wallet.ui.get().confirmation
    if (shown) void channel.post({ type: 'decision', id: shown.id, ...decision }).catch(() => {})
  }
  return {
    confirm: async () => decide({ approve: true }),
    reject: () => decide({ approve: false }),
    rejectAll: () => decide({ approve: false, all: true }),
  }
}
