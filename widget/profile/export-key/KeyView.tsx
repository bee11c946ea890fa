import { useEffect, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import { errorDisplayMs } from '../../constants.ts'
import { useConfirmGate } from '../../ui/use-confirm-gate.ts'
import { useTimedMessage } from '../../use-timed.ts'
import type { ExportKeyText } from './export-key-text.ts'

type Hex = `0x${string}`

/** How long a fetched key stays on the page before it is hidden and forgotten. */
export const revealSeconds = 60

/** What stands in for the key while it is hidden: its shape, blurred, never the key itself. */
const placeholder = `0x${'5f3a9c1e'.repeat(8)}`

/**
 * The key behind Reveal and Copy, in the secure window only: a top-level window on the provider
 * origin, which no host page can lay under its own bait, fade or crop. The page can still time the
 * window: it opens under a pointer that a click-spam game keeps clicking, and a Copy taken that way
 * puts the key on the clipboard for the page's next 'paste here'. So both buttons wait as the
 * window's Confirm does: 500 ms after the key showed (or the window got the user back), and a
 * deliberate move of the hand in the window. Forgotten `revealSeconds` after it arrived (revealed or not), when the
 * window is hidden, and when the page goes away (closed, or navigated: a page kept for the back
 * button must not bring the key back).
 */
export function KeyView({ privateKey, text, onGone }: { privateKey: Hex; text: ExportKeyText; onGone(): void }) {
  const [shown, setShown] = useState(false)
  // Counted from the key's arrival, not its first reveal: a key never revealed is let go too.
  const [deadline] = useState(() => Date.now() + revealSeconds * 1000)
  const [left, setLeft] = useState(revealSeconds)
  const [notice, showNotice] = useTimedMessage(errorDisplayMs)
  const buttons = useRef<HTMLDivElement>(null)
  const gate = useConfirmGate(buttons, 'key', 'window')
  const waiting = gate.state !== 'clear'

  useEffect(() => {
    const tick = () => {
      const seconds = Math.ceil((deadline - Date.now()) / 1000)
      if (seconds <= 0) onGone()
      else setLeft(seconds)
    }
    const timer = setInterval(tick, 1000)
    return () => clearInterval(timer)
  }, [deadline, onGone])
  useEffect(() => {
    // A hidden window is a user who walked away: the key is forgotten, not only blurred. Rendered
    // before the listener returns: a page frozen for the back button (or a snapshot of a hidden
    // window) keeps what the document holds then, not a render React only scheduled.
    const leave = () => flushSync(onGone)
    const away = () => document.visibilityState === 'hidden' && leave()
    document.addEventListener('visibilitychange', away)
    addEventListener('pagehide', leave)
    return () => {
      document.removeEventListener('visibilitychange', away)
      removeEventListener('pagehide', leave)
    }
  }, [onGone])

  const copy = () =>
    gate.allows() &&
    void navigator.clipboard.writeText(privateKey).then(
      () => showNotice(text.copied),
      () => showNotice(text.copyFailed),
    )
  return (
    <div className="wk-stack">
      <span className="wk-muted">{text.keyLabel}</span>
      <div className="wk-card" data-testid="export-key-value">
        {shown ? (
          <code className="wk-code">{privateKey}</code>
        ) : (
          <code className="wk-code" aria-hidden="true" style={{ filter: 'blur(5px)', userSelect: 'none' }}>
            {placeholder}
          </code>
        )}
      </div>
      <span className="wk-muted">{text.hiddenSoon(left)}</span>
      <div className="wk-row wk-row--even" ref={buttons}>
        <button type="button" className="wk-button" disabled={waiting && !shown} onClick={() => (shown || gate.allows()) && setShown(!shown)}>
          {shown ? text.hide : text.reveal}
        </button>
        <button type="button" className="wk-button wk-button--primary" disabled={waiting} onClick={copy}>
          {text.copy}
        </button>
      </div>
      <p className="wk-notice" role="status">
        {notice}
      </p>
    </div>
  )
}
