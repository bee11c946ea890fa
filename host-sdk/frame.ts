/**
 * The widget iframe: preloaded hidden, shown full-viewport over the page with a transparent
 * background when the widget asks. While shown, page scroll is locked and focus moves into the
 * frame; on hide both are given back.
 */
export type Frame = {
  readonly element: HTMLIFrameElement
  setVisible(visible: boolean): void
  remove(): void
}

const hidden = 'display:none'
// color-scheme normal: a frame whose scheme differs from the page's gets an opaque backdrop.
const shown = 'position:fixed;inset:0;width:100%;height:100%;border:0;background:none;color-scheme:normal;z-index:2147483647'

export function mountFrame(src: string, onVisible: (visible: boolean) => void): Frame {
  const element = document.createElement('iframe')
  element.src = src
  element.title = 'Wallet'
  element.dataset.testid = 'wallet-kit-frame'
  // Passkeys: the frame's own origin may run WebAuthn ceremonies (an engine may still refuse them in a frame).
  element.allow = 'clipboard-write;publickey-credentials-get;publickey-credentials-create'
  element.style.cssText = hidden
  // kit.js may run in <head>, before <body> exists.
  const attach = () => document.body.appendChild(element)
  if (document.body) attach()
  else document.addEventListener('DOMContentLoaded', attach, { once: true })

  const root = document.documentElement.style
  let restoreFocus: HTMLElement | null = null
  let restoreOverflow = ''
  let visible = false

  function setVisible(show: boolean): void {
    if (show === visible) return
    visible = show
    if (show) {
      restoreFocus = document.activeElement as HTMLElement | null
      restoreOverflow = root.overflow
      root.overflow = 'hidden'
      element.style.cssText = shown
      element.focus()
    } else {
      element.style.cssText = hidden
      root.overflow = restoreOverflow
      restoreFocus?.focus()
    }
    onVisible(show)
  }

  return {
    element,
    setVisible,
    remove() {
      setVisible(false)
      element.remove()
    },
  }
}
