import { useCallback, useEffect, useRef, useState } from 'react'
import { createRoot } from 'react-dom/client'
import type { Context } from '../../../sdk/config.ts'
import type { ExportKeyHandoff, PopupChannel } from '../../../sdk/popup-channel.ts'
import type { TokenHolder } from '../../../sdk/config.ts'
import { exportPrivateKey } from '../../../sdk/wallet/step-up.ts'
import type { Locale } from '../../i18n.ts'
import { exportKeyText, failureText } from './export-key-text.ts'
import { KeyView } from './KeyView.tsx'

type Hex = `0x${string}`

type Props = {
  /** The window's end of the channel the frame opened it with. */
  channel: PopupChannel<'popup'>
  /** The services' configuration (where the wallet service is, the app's headers); its own tokens are not used. */
  context: Context
  locale: Locale
  close(): void
}

type Phase = { at: 'waiting' } | { at: 'key'; key: Hex } | { at: 'failed'; message: string } | { at: 'gone' }

/** The frame's wallet token for one call, kept nowhere: no refresh (a 401 is an answer), nothing stored. */
const oneToken = (walletToken: string): TokenHolder => ({
  get: () => ({ walletToken }),
  set() {},
  clear() {},
  subscribe: () => () => {},
})

/**
 * The window's one call: the key, fetched with the frame's session (the proof is bound to it) on a
 * token holder of its own, so nothing of the frame's session is kept in this window. The answer is
 * checked before it is shown.
 */
async function fetchKey(context: Context, handoff: ExportKeyHandoff): Promise<Hex> {
  const { privateKey } = await exportPrivateKey({ ...context, tokens: oneToken(handoff.walletToken) }, { stepUpProof: handoff.stepUpProof })
  if (typeof privateKey !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(privateKey)) throw new Error('The wallet service sent no key')
  return privateKey
}

/**
 * The secure window's export page. The frame did the step-up; it hands over its wallet token and
 * the proof on the channel once this window said hello, and this window fetches the key itself, so
 * the key never passes through the frame or the host page. Only the first well-formed handoff is
 * used: a second one (replayed, or written by anyone else who holds the channel) fetches nothing.
 */
export function WindowExport({ channel, context, locale, close }: Props) {
  const text = exportKeyText[locale]
  const [phase, setPhase] = useState<Phase>({ at: 'waiting' })
  const taken = useRef(false)
  useEffect(() => {
    let live = true
    const stop = channel.listen({
      message(message) {
        if (message.type !== 'export-key' || taken.current) return
        taken.current = true
        fetchKey(context, message).then(
          (key) => live && setPhase({ at: 'key', key }),
          (failure: unknown) => {
            const { code } = (failure ?? {}) as { code?: unknown }
            if (live) setPhase({ at: 'failed', message: code === '403' ? text.spent : failureText(failure, text) })
          },
        )
      },
    })
    return () => {
      live = false
      stop()
    }
  }, [channel, context, text])
  const gone = useCallback(() => setPhase({ at: 'gone' }), [])

  return (
    <div className="wk-backdrop">
      <div className="wk-dialog" role="dialog" aria-labelledby="wk-export-title" data-testid="export-key-window">
        <header className="wk-header">
          <span className="wk-icon-spacer" />
          <h1 className="wk-title" id="wk-export-title">
            {text.windowTitle}
          </h1>
          <span className="wk-icon-spacer" />
        </header>
        <div className="wk-body wk-stack">
          {phase.at === 'waiting' && (
            <p className="wk-text" role="status">
              {text.fetching}
            </p>
          )}
          {phase.at === 'key' && <KeyView privateKey={phase.key} text={text} onGone={gone} />}
          {phase.at === 'failed' && (
            <p className="wk-error" role="alert">
              {phase.message}
            </p>
          )}
          {phase.at === 'gone' && (
            <p className="wk-text" role="status">
              {text.hiddenAgain}
            </p>
          )}
          <button type="button" className="wk-button" onClick={close}>
            {text.close}
          </button>
        </div>
      </div>
    </div>
  )
}

/** Renders the export page in the secure window, in the place of the widget. */
export function showWindowExport(props: Props) {
  createRoot(document.getElementById('root')!).render(<WindowExport {...props} />)
}
