/**
 * The widget iframe: preloaded hidden, shown full-viewport over the page when the widget asks.
 * While shown, page scroll is locked and focus moves into the frame; it returns on hide.
 */
export type Frame = {
  readonly element: HTMLIFrameElement
  /** Resolves once the frame is in the document (kit.js may run in <head>, before <body> exists). */
  readonly attached: Promise<void>
  setVisible(visible: boolean): void
  remove(): void
}

const hidden = 'display:none'
const shown =
  'display:block;position:fixed;inset:0;width:100vw;height:100vh;border:0;margin:0;padding:0;' +
  'background:transparent;color-scheme:normal;z-index:2147483647'

export function mountFrame(src: string, doc: Document = document): Frame {
  const element = doc.createElement('iframe')
  element.src = src
  element.title = 'Wallet'
  element.dataset.testid = 'wallet-kit-frame'
  element.setAttribute('allow', 'clipboard-write')
  element.setAttribute('style', hidden)
  const attached = new Promise<void>((resolve) => {
    const attach = () => {
      doc.body.appendChild(element)
      resolve()
    }
    if (doc.body) attach()
    else doc.addEventListener('DOMContentLoaded', attach, { once: true })
  })

  let restoreFocus: Element | null = null
  let restoreOverflow: string | null = null

  function setVisible(visible: boolean): void {
    const isShown = element.style.display === 'block'
    if (visible === isShown) return
    if (visible) {
      restoreFocus = doc.activeElement
      restoreOverflow = doc.documentElement.style.overflow
      doc.documentElement.style.overflow = 'hidden'
      element.setAttribute('style', shown)
      element.focus()
    } else {
      element.setAttribute('style', hidden)
      doc.documentElement.style.overflow = restoreOverflow ?? ''
      if (restoreFocus instanceof HTMLElement) restoreFocus.focus()
      restoreFocus = null
    }
  }

  return {
    element,
    attached,
    setVisible,
    remove() {
      setVisible(false)
      element.remove()
    },
  }
}
