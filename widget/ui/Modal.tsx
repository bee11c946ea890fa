import { useEffect, useRef, type ReactNode } from 'react'
import { useT } from '../i18n.ts'

type Props = {
  title: string
  onClose: () => void
  onBack?: (() => void) | undefined
  /** A pending confirmation disables Escape, backdrop and the close button. */
  closable?: boolean
  wide?: boolean
  /** The page shows its own heading; the title then only names the dialog for assistive tech. */
  hideTitle?: boolean
  children: ReactNode
  footer?: ReactNode
  testId: string
}

/** Centred dialog on desktop, bottom sheet under 480 px (styles.css). */
export function Modal({ title, onClose, onBack, closable = true, wide = false, hideTitle = false, children, footer, testId }: Props) {
  const dialog = useRef<HTMLDivElement>(null)
  const t = useT()

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && closable) onClose()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [closable, onClose])

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again for each new page (named by its title) to focus its first field; it reads the DOM, not the title
  useEffect(() => {
    const first = dialog.current?.querySelector<HTMLElement>('input, button:not([data-chrome])')
    first?.focus()
  }, [title])

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click outside is a pointer shortcut; the keyboard has Escape and the close button for the same
    <div className="wk-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closable && onClose()}>
      <div ref={dialog} className={wide ? 'wk-dialog wk-dialog--wide' : 'wk-dialog'} role="dialog" aria-modal="true" aria-label={title} data-testid={testId}>
        <header className="wk-header">
          {onBack ? (
            <button type="button" className="wk-icon-button" data-chrome aria-label={t.back} onClick={onBack}>
              ‹
            </button>
          ) : (
            <span className="wk-icon-spacer" />
          )}
          <h1 className="wk-title">{hideTitle ? '' : title}</h1>
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
