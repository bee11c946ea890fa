import { useEffect, useRef, type ReactNode } from 'react'
import { useT } from '../context.ts'

type Props = {
  title: string
  onClose: () => void
  onBack?: (() => void) | undefined
  /** A pending confirmation disables Escape, backdrop and the close button. */
  closable?: boolean
  wide?: boolean
  /** The page shows its own heading, with id `titleId`, which then names the dialog. */
  hideTitle?: boolean
  children: ReactNode
  footer?: ReactNode
  testId: string
}

/** The id of the element that names the open dialog (one dialog at a time): its title, or the page's own heading (hideTitle). */
export const titleId = 'wk-title'

const tabbable = 'button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), a[href], [tabindex]:not([tabindex="-1"])'

/** Centred dialog on desktop, bottom sheet under 480 px (styles.css). */
export function Modal({ title, onClose, onBack, closable = true, wide = false, hideTitle = false, children, footer, testId }: Props) {
  const dialog = useRef<HTMLDivElement>(null)
  const t = useT()

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && closable) onClose()
      // Focus stays in the dialog: Tab from the last control goes to the first, Shift+Tab from the first to the last.
      if (e.key !== 'Tab' || !dialog.current) return
      const stops = [...dialog.current.querySelectorAll<HTMLElement>(tabbable)].filter((el) => el.getClientRects().length > 0)
      const first = stops[0]
      const last = stops[stops.length - 1]
      if (!first || !last) return e.preventDefault()
      const active = document.activeElement
      const inside = active instanceof HTMLElement && dialog.current.contains(active)
      if (e.shiftKey ? !inside || active === first : !inside || active === last) {
        e.preventDefault()
        ;(e.shiftKey ? last : first).focus()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [closable, onClose])

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again for each new page (named by its title) to focus its first field; it reads the DOM, not the title
  useEffect(() => {
    // A page with no field or button of its own (an empty wallet list) focuses its Back or Close: focus never falls out of the dialog.
    const first = dialog.current?.querySelector<HTMLElement>('input, button:not([data-chrome])') ?? dialog.current?.querySelector<HTMLElement>(tabbable)
    first?.focus()
  }, [title])

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click outside is a pointer shortcut; the keyboard has Escape and the close button for the same
    <div className="wk-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closable && onClose()}>
      <div
        ref={dialog}
        className={wide ? 'wk-dialog wk-dialog--wide' : 'wk-dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
      >
        <header className="wk-header">
          {onBack ? (
            <button type="button" className="wk-icon-button" data-chrome aria-label={t.back} onClick={onBack}>
              ‹
            </button>
          ) : (
            <span className="wk-icon-spacer" />
          )}
          {/* No empty heading when the page shows its own. */}
          {hideTitle ? (
            <span className="wk-title" />
          ) : (
            <h1 className="wk-title" id={titleId}>
              {title}
            </h1>
          )}
          <button type="button" className="wk-icon-button" data-chrome aria-label={t.close} disabled={!closable} onClick={onClose}>
            ×
          </button>
        </header>
        <div className="wk-body">{children}</div>
        {footer}
      </div>
    </div>
  )
}

/** The modal's footer: 'Powered by Wallet Kit', unless the app's config turns it off (`show`). */
export function Footer({ show }: { show: boolean }) {
  const t = useT()
  if (!show) return null
  return (
    <footer className="wk-footer">
      {t.poweredBy} <strong>Wallet Kit</strong>
    </footer>
  )
}
