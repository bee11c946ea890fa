import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react'
import { recoverWallet } from '../../../sdk/wallet/recover.ts'
import { useWidget } from '../../context.ts'
import { errorText } from '../../use-timed.ts'
import { parseRecoveryText, readRecoveryFile } from './recovery-file.ts'
import { recoveryText } from './recovery-text.ts'

type Text = (typeof recoveryText)['en']

/** What a failed call reads as: the service's refusal of the secret, no network, a session gone; else the service's own words. */
function failureText(error: unknown, text: Text): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (code === '400' && typeof message === 'string' && /does not match/i.test(message)) return text.otherWallet
  if (code === 'NO_RESPONSE') return text.offline
  if (code === '401' || code === 'TOKEN_REFRESH_FAILED') return text.signedOut
  return errorText(error)
}

// The drop zone's look: a dashed card; the accent while a file is held over it, and the focus ring
// while its (visually hidden) file input has the keyboard's focus.
const zone = (over: boolean, focused: boolean) =>
  ({
    borderStyle: 'dashed',
    display: 'block',
    textAlign: 'center',
    cursor: 'pointer',
    ...(over && { borderColor: 'var(--wk-accent)' }),
    ...(focused && { outline: '2px solid var(--wk-accent-fg)', outlineOffset: '2px' }),
  }) as const

/**
 * The profile's 'recovery' page: the recovery file the wallet offered at creation (chosen, or
 * dropped), or the secret pasted, restores the signed-in wallet's key on the service
 * (account/recover) and renews the session. The secret is checked here before any call, goes only
 * to the service from this frame, and is forgotten once the page is done with it; the new tokens go
 * to the session owner, as any sign-in's.
 */
export function Recovery({ address }: { address: `0x${string}` }) {
  const { client, locale, wallet } = useWidget()
  const text = recoveryText[locale]
  const [secret, setSecret] = useState<{ secret0: `0x${string}`; file: string } | null>(null)
  const [pasted, setPasted] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [state, setState] = useState<'idle' | 'sending' | 'done'>('idle')
  const [over, setOver] = useState(false)
  const [focused, setFocused] = useState(false)
  const reading = useRef(0)
  const input = useRef<HTMLInputElement>(null)
  const pasteId = useId()

  const forget = () => {
    reading.current++
    setSecret(null)
    setPasted('')
    if (input.current) input.current.value = ''
  }

  async function take(file: File | undefined) {
    if (!file || state === 'sending') return
    const mine = ++reading.current
    setSecret(null)
    setPasted('')
    setError(null)
    const parsed = await readRecoveryFile(file)
    // A file chosen after this one, or the page done meanwhile: this read is stale.
    if (mine !== reading.current) return
    if ('problem' in parsed) return setError(text.problems[parsed.problem])
    setSecret({ secret0: parsed.secret0, file: file.name })
  }

  function drop(event: DragEvent) {
    event.preventDefault()
    setOver(false)
    // Files only: text or a link dragged in from the page around the frame is not a recovery file.
    void take(event.dataTransfer.files[0])
  }

  async function restore(event: FormEvent) {
    event.preventDefault()
    if (state !== 'idle') return
    const parsed = secret ?? parseRecoveryText(pasted)
    if ('problem' in parsed) return setError(text.pasteProblem)
    if (!client.context) return setError(errorText(new Error('The wallet service is not available')))
    setState('sending')
    setError(null)
    try {
      await recoverWallet(client.context, { secret0: parsed.secret0 })
      forget()
      setState('done')
    } catch (failure) {
      setState('idle')
      setError(failureText(failure, text))
    }
  }

  if (state === 'done')
    return (
      <div className="wk-stack wk-center" data-testid="recovery-done">
        <div className="wk-success" aria-hidden="true">
          ✓
        </div>
        <p className="wk-text" role="status">
          {text.restored}
        </p>
        <code className="wk-code">{address}</code>
        <button type="button" className="wk-button wk-button--primary wk-full" onClick={wallet.back}>
          {text.done}
        </button>
      </div>
    )

  const sending = state === 'sending'
  return (
    <form className="wk-stack" noValidate onSubmit={(e) => void restore(e)}>
      <p className="wk-text">{text.intro}</p>
      <label
        className="wk-card"
        style={zone(over, focused)}
        data-testid="recovery-drop"
        onDragOver={(e) => {
          e.preventDefault()
          setOver(true)
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <input
          ref={input}
          className="wk-sr-only"
          // No accept filter: phones grey out a file whose extension they do not know (ours), and
          // the page checks what it is given anyway.
          type="file"
          disabled={sending}
          onFocus={(e) => setFocused(e.target.matches(':focus-visible'))}
          onBlur={() => setFocused(false)}
          onChange={(e) => void take(e.target.files?.[0])}
        />
        <strong>{text.chooseFile}</strong>
        <span className="wk-muted" style={{ display: 'block' }}>
          {text.dropHint}
        </span>
      </label>
      {secret && (
        // A file's name can be one long word: it wraps rather than widen the dialog.
        <p className="wk-notice" style={{ overflowWrap: 'anywhere' }}>
          {text.chosen(secret.file)}
        </p>
      )}
      <label className="wk-label" htmlFor={pasteId}>
        {text.pasteLabel}
      </label>
      <textarea
        id={pasteId}
        className="wk-input"
        style={{ height: 'auto', padding: '10px 14px', fontFamily: 'ui-monospace, monospace', wordBreak: 'break-all' }}
        rows={2}
        maxLength={4096}
        spellCheck={false}
        autoComplete="off"
        autoCapitalize="off"
        placeholder="0x…"
        value={pasted}
        disabled={sending}
        onChange={(e) => {
          reading.current++
          setSecret(null)
          setError(null)
          setPasted(e.target.value)
          if (input.current) input.current.value = ''
        }}
      />
      {error && (
        <p className="wk-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="wk-button wk-button--primary" disabled={sending || (!secret && !pasted.trim())}>
        {sending ? text.restoring : text.restore}
      </button>
    </form>
  )
}
