/**
 * Test support: two window identities in one happy-dom window, so the host side (channel.ts) and a
 * real Penpal child can talk as parent page and frame do. A message posted to one arrives as a
 * `message` event on the global window whose `source` is the sender and `origin` the sender's.
 */
type Fake = Window & { origin: string }

export function windowPair(hostOrigin: string, frameOrigin: string) {
  const make = (origin: string): Fake => ({ origin }) as Fake
  const host = make(hostOrigin)
  const frame = make(frameOrigin)
  const wire = (from: Fake, to: Fake) => {
    to.postMessage = ((message: unknown, target: string | WindowPostMessageOptions = {}, transfer: Transferable[] = []) => {
      const options = typeof target === 'string' ? { targetOrigin: target, transfer } : target
      if (options.targetOrigin && options.targetOrigin !== '*' && options.targetOrigin !== to.origin) return
      // Ports travel beside the data (Node's MessagePort is not happy-dom's, so no instanceof).
      const ports = (options.transfer ?? []).filter((t): t is MessagePort => 'postMessage' in t)
      const data = structuredClone(message)
      setTimeout(() => window.dispatchEvent(new MessageEvent('message', { data, origin: from.origin, source: from as never, ports })))
    }) as Window['postMessage']
  }
  wire(host, frame)
  wire(frame, host)
  /** Posts `message` to the host page from a stranger window on `origin`. */
  const stranger = (origin: string, message: unknown) =>
    window.dispatchEvent(new MessageEvent('message', { data: message, origin, source: make(origin) as never }))
  return { host, frame, stranger }
}
