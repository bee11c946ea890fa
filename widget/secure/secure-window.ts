import { secureWindowUrl, type FrameParams } from '../../bridge/frame-url.ts'
import { secureWindowGoneMs, secureWindowHelloMs, secureWindowSize } from '../constants.ts'
import { windowTransport } from './window-transport.ts'
import type { Transport } from '../../bridge/transport.ts'
import { type FrameMessage, newPopupChannelId, openPopupChannel, type PopupMessage } from '../../sdk/popup-channel.ts'

export type SecureWindowHandlers = {
  /** A message from the secure window (or the server's handoff into the channel), already checked. */
  message(message: PopupMessage): void
  /** The window was closed (by the user, or by itself once done). */
  closed(): void
  /** No window came up: the browser blocked it. */
  blocked(): void
}

export type SecureWindow = { channel: Transport<FrameMessage, PopupMessage>; close(): void }

/**
 * Opens the secure window: a popup on the provider origin, first-party (its storage is the
 * provider's own) and out of reach of the host page, which can neither cover it nor read it.
 * Must be called from a click in the frame (the frame's user activation opens it).
 *
 * The window and the frame talk through the popup channel on the provider's server, named by a
 * fresh random id that only the frame and the window's URL fragment hold. A host page sending
 * `Cross-Origin-Opener-Policy` leaves the frame without a handle to the window (window.open returns
 * null though the window opened), so neither a null handle nor a missing `closed` flag decides
 * anything alone: the window says hello on the channel, and its reading there is its heartbeat.
 */
export function openSecureWindow(params: FrameParams, handlers: SecureWindowHandlers): SecureWindow {
  const popup = openPopupChannel(newPopupChannelId(), 'frame')
  const { width, height } = secureWindowSize
  // In a frame these are the browser window's: the popup is centred on the host page's window.
  const left = Math.round(window.screenX + (window.outerWidth - width) / 2)
  const top = Math.round(window.screenY + (window.outerHeight - height) / 2)
  const url = secureWindowUrl({ ...params, providerOrigin: location.origin }, popup.id)
  const handle = window.open(url, '_blank', `popup,width=${width},height=${height},left=${left},top=${top}`)

  // Without a handle (COOP) the channel alone tells when the window is gone (window-transport.ts).
  const channel = windowTransport(popup, { waitMs: handle ? 15_000 : 1_000, goneMs: secureWindowGoneMs })
  let ended = false
  let greeted = false
  const timers: ReturnType<typeof setTimeout>[] = []
  const end = (why: 'closed' | 'blocked') => {
    if (ended) return
    ended = true
    stop()
    for (const timer of timers) clearTimeout(timer)
    handlers[why]()
  }
  const stop = channel.listen({
    message(message) {
      if (message.type === 'hello') greeted = true
      if (!ended) handlers.message(message)
    },
    ended: () => end('closed'),
  })
  if (handle?.closed) end('blocked')
  else
    timers.push(
      // An open handle is a window still loading; no handle and no hello is a blocked one.
      setTimeout(() => !greeted && !(handle && !handle.closed) && end('blocked'), secureWindowHelloMs),
      setInterval(() => handle?.closed && end('closed'), 250) as unknown as ReturnType<typeof setTimeout>,
    )
  return {
    channel,
    close() {
      if (ended) return
      ended = true
      stop()
      for (const timer of timers) clearTimeout(timer)
      handle?.close()
    },
  }
}
