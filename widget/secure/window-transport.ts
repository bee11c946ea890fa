import type { Transport } from '../../bridge/transport.ts'
import type { FrameMessage, PopupChannel, PopupMessage } from '../../sdk/popup-channel.ts'

/**
 * The frame's end of the popup channel to its secure window, as a transport (bridge/transport.ts):
 * `ended` once the window is gone. A host page sending Cross-Origin-Opener-Policy leaves the frame
 * without a handle on the window, so the channel alone must tell: the window says `closed` as it
 * unloads; a window that said hello and then has not read for `goneMs` was closed without a word;
 * and a channel past its lifetime (410) can no longer reach it. Once ended, posts reject.
 */
export function windowTransport(channel: PopupChannel<'frame'>, options: { waitMs: number; goneMs: number }): Transport<FrameMessage, PopupMessage> {
  let over = false
  return {
    post: (message) => (over ? Promise.reject(new Error('The secure window is gone')) : channel.post(message)),
    listen(handlers) {
      let done = false
      let greeted = false
      let lastSeen = Date.now()
      const end = () => {
        if (done) return
        done = true
        over = true
        stop()
        handlers.ended?.()
      }
      const stop = channel.listen(
        {
          message(message) {
            if (done) return
            if (message.type === 'closed') return end()
            if (message.type === 'hello') greeted = true
            handlers.message(message)
          },
          ended: end,
          peer(peer) {
            if (peer === 'here') lastSeen = Date.now()
            if (peer === 'gone' && greeted && Date.now() - lastSeen >= options.goneMs) end()
          },
        },
        options.waitMs,
      )
      return () => {
        done = true
        stop()
      }
    },
  }
}
