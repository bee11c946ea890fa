import { Suspense, useEffect, useRef, useState } from 'react'
import type { Hex } from 'viem'
import { messagePreviewChars } from '../constants.ts'
import { useWidget, useStore, useT } from '../context.ts'
import { shortAddress } from '../format.ts'
import { Footer, Modal } from '../ui/Modal.tsx'
import { hasIntersectionObserverV2, useConfirmGate } from '../ui/use-confirm-gate.ts'
import { SecureWindowButton, SecureWindowNotes } from '../secure/SecureWindowButton.tsx'
import type { SecureState } from '../secure/secure-handle.ts'
import { createStore } from '../store.ts'
import type { Confirmation } from '../ui-state.ts'
import { confirmText } from './confirm-text.ts'
import { type Row, transactionRows } from './transaction-rows.ts'
import { transactionStepUp } from '../accounts/embedded.ts'
import { lazyRoute } from '../lazy-route.ts'
import { clip, confirmableInFrame, confirmationPlace, describeMessage, foreignSignIn, ownSignIn, revealInvisible, windowStatus } from './presentation.ts'

/** A transaction's step-up screen and its words: loaded when the service asks for one (a message never does). */
const TransactionStepUp = lazyRoute(
  () => import('./TransactionStepUp.tsx'),
  (m) => m.TransactionStepUp,
)

/** A long message shows its start and says so, with a way to see the rest: nothing is hidden silently. */
function Clipped({ text, label, testId }: { text: string; label: string; testId: string }) {
  const t = useT()
  const [all, setAll] = useState(false)
  const { visible, hidden, total } = clip(text, messagePreviewChars)
  return (
    <>
      {/* A document: static text that a screen reader reads in place, inside the dialog. */}
      <pre className="wk-message" role="document" aria-label={label} data-testid={testId}>
        {all ? text : visible}
      </pre>
      {hidden > 0 && !all && (
        <p className="wk-hint wk-row">
          <span>{t.clipped(messagePreviewChars, total)}</span>
          <button type="button" className="wk-link" onClick={() => setAll(true)}>
            {t.showAll}
          </button>
        </p>
      )}
    </>
  )
}

function Message({ bytes }: { bytes: Hex }) {
  const t = useT()
  const { wallet, locale } = useWidget()
  const view = describeMessage(bytes)
  const label = view.as === 'text' ? t.messageText : t.messageBytes
  const foreign = view.as === 'text' ? foreignSignIn(view.shown, wallet.hostOrigin) : null
  const own = view.as === 'text' && !foreign ? ownSignIn(view.shown, wallet.hostOrigin) : null
  return (
    <div className="wk-stack wk-stack--tight">
      <p className="wk-label" data-testid="confirm-message-kind">
        {label}
      </p>
      {view.warning && (
        <p className="wk-warning" role="note" data-testid="confirm-message-warning">
          {view.warning === 'invisible'
            ? confirmText[locale].messageInvisible
            : view.warning === 'hash'
              ? confirmText[locale].messageBlindHash
              : confirmText[locale].messageLooksLikeHex}
        </p>
      )}
      {own && (
        <p className="wk-hint" data-testid="confirm-sign-in">
          {confirmText[locale].signInOwn(own)}
        </p>
      )}
      {foreign && (
        <p className="wk-warning" role="note" data-testid="confirm-sign-in-warning">
          {confirmText[locale].signInForeign(foreign, wallet.hostOrigin)}
        </p>
      )}
      <Clipped text={view.shown} label={t.signMessage} testId="confirm-message" />
      {view.warning === 'looks-like-hex' && (
        <p className="wk-hint">
          {t.messageBytesOf}: <code>{view.bytes}</code>
        </p>
      )}
    </div>
  )
}

function TypedData({ json }: { json: string }) {
  const t = useT()
  const { locale } = useWidget()
  const { text, revealed } = revealInvisible(json)
  return (
    <div className="wk-stack wk-stack--tight">
      {revealed && (
        <p className="wk-warning" role="note" data-testid="confirm-message-warning">
          {confirmText[locale].typedDataInvisible}
        </p>
      )}
      <Clipped text={text} label={t.signMessage} testId="confirm-message" />
    </div>
  )
}

function Details({ confirmation }: { confirmation: Confirmation }) {
  const { wallet, locale } = useWidget()
  const { payload, kind } = confirmation
  const t = useT()
  // Always a configured chain: requests are made on the active chain (rpc/index.ts, who signs).
  const chain = wallet.chain(payload.chainId)
  const currency = chain?.nativeCurrency ?? { symbol: '', decimals: 18 }
  const rows: Row[] = [
    // The origin Penpal checked every message against (the app allows it), never what the page says of itself.
    { label: t.requestFrom, value: wallet.hostOrigin, testId: 'confirm-origin' },
    { label: t.from, value: shortAddress(payload.from) },
    { label: t.network, value: chain ? chain.name : `Chain ${payload.chainId}`, testId: 'confirm-network' },
    ...(kind === 'transaction' ? transactionRows(confirmation, t, currency) : []),
  ]
  return (
    <>
      <dl className="wk-details">
        {rows.map(({ label, value, testId }) => (
          <div key={label} className="wk-detail">
            <dt>{label}</dt>
            <dd data-testid={testId}>{value}</dd>
          </div>
        ))}
      </dl>
      {kind === 'message' && <Message bytes={(payload.message ?? '0x') as Hex} />}
      {kind === 'typed-data' && <TypedData json={payload.message ?? ''} />}
      {kind === 'transaction' && payload.data && payload.data !== '0x' && (
        <Clipped text={payload.data} label={confirmText[locale].data} testId="confirm-data" />
      )}
      {kind === 'transaction' &&
        payload.calls
          ?.map((call, i) => ({ ...call, n: i + 1 }))
          .filter((call) => call.data && call.data !== '0x')
          .map((call) => (
            <div key={call.n} className="wk-stack wk-stack--tight">
              <p className="wk-label">{t.callNumber(call.n)}</p>
              <Clipped text={call.data!} label={`${t.callNumber(call.n)}: ${confirmText[locale].data}`} testId={`confirm-call-data-${call.n}`} />
            </div>
          ))}
    </>
  )
}

/** A screen with no secure window (the window itself) reads this one: never open. */
const noWindow = createStore<SecureState>({ status: 'idle', purpose: null })

type Asking = { request: `0x${string}`; resolve(proof: string): void; reject(): void }

/**
 * While this modal is up it answers the service's step-up demand for a transaction (accounts/
 * embedded.ts): the code step shows in place of the buttons; Reject there is the user's 4001.
 */
function useStepUpAsk(): Asking | null {
  const [asking, setAsking] = useState<Asking | null>(null)
  useEffect(() => {
    let pending: Asking | null = null
    const stop = transactionStepUp.answerWith(
      (request) =>
        new Promise<string>((resolve, reject) => {
          const done = () => {
            pending = null
            setAsking(null)
          }
          pending = {
            request,
            resolve: (proof) => {
              done()
              resolve(proof)
            },
            reject: () => {
              done()
              reject(Object.assign(new Error('Transaction rejected by user'), { code: 4001 }))
            },
          }
          setAsking(pending)
        }),
    )
    return () => {
      stop()
      pending?.reject()
    }
  }, [])
  return asking
}

/** The confirmation modal: titled 'Confirm Transaction' or 'Sign Message'; its buttons Reject or Close, and Confirm or Try Again. */
export function ConfirmModal() {
  const { wallet, confirmations, config, presentation, mode, secure, locale } = useWidget()
  const confirmation = useStore(wallet.ui, (s) => s.confirmation)
  const queued = useStore(wallet.ui, (s) => s.queued)
  const actions = useRef<HTMLDivElement>(null)
  const gate = useConfirmGate(actions, confirmation?.id, presentation)
  const t = useT()
  const asking = useStepUpAsk()
  // The secure window's notes show only when they have something to say (why it is used, that it is open or blocked).
  const windowUp = useStore(secure?.state ?? noWindow, (s) => windowStatus(s, 'confirm') !== 'idle')
  if (!confirmation) return null
  const { status, error, kind, onDevice } = confirmation
  const title = kind === 'transaction' ? t.confirmTransaction : t.signMessage
  const busy = status === 'loading' || status === 'success'
  // Confirm exists only where the user can be shown to see the whole request: otherwise in the
  // secure window (always, for anything that moves value or grants authority: presentation.ts).
  const place = confirmationPlace({
    secureWindow: secure !== null,
    mode,
    onDevice: onDevice === true,
    confirmableInFrame: confirmableInFrame(confirmation, wallet.hostOrigin),
    gate: gate.state,
    busy,
    visibilityProvable: hasIntersectionObserverV2(),
  })
  return (
    <Modal testId="confirmation" title={title} closable={false} onClose={() => {}} footer={<Footer show={config.showPoweredBy !== false} />}>
      {/* Keyed by request: nothing (an expanded message, the gate) carries over to the next one. */}
      <div className="wk-stack" key={confirmation.id}>
        <Details confirmation={confirmation} />
        {asking && (
          <Suspense fallback={null}>
            <TransactionStepUp request={asking.request} onProof={asking.resolve} onCancel={asking.reject} />
          </Suspense>
        )}
        {!asking && (
          <p className="wk-error" role="alert">
            {error}
          </p>
        )}
        {status === 'success' && (
          <p className="wk-notice" role="status">
            {t.done}
          </p>
        )}
        {status === 'wallet' && (
          <p className="wk-notice wk-waiting" role="status" data-testid="confirm-in-wallet">
            <span className="wk-spinner" aria-hidden="true" />
            <span>{t.confirmInWallet}</span>
          </p>
        )}
        {confirmation.askingStepUp && (
          <p className="wk-notice" role="status" data-testid="confirm-step-up-on-page">
            {confirmText[locale].stepUpOnPage}
          </p>
        )}
        {!asking && !confirmation.askingStepUp && (
          <div className="wk-row wk-row--even" ref={actions}>
            <button type="button" className="wk-button" disabled={busy || status === 'wallet'} onClick={confirmations.reject}>
              {status === 'error' ? t.close : t.reject}
            </button>
            {place.where === 'device' ? null : place.where === 'window' ? (
              <SecureWindowButton purpose="confirm" gate={gate} />
            ) : (
              <button
                type="button"
                className="wk-button wk-button--primary"
                disabled={gate.state !== 'clear' || busy}
                // Decided at the click: a frame moved under the pointer since the last render is caught here.
                onClick={() => gate.allows() && void confirmations.confirm()}
              >
                {status === 'loading' ? t.confirming : status === 'error' ? t.tryAgain : t.confirm}
              </button>
            )}
          </div>
        )}
        {secure && !asking && place.where !== 'device' && (place.announce || windowUp) && <SecureWindowNotes purpose="confirm" hint={place.announce} />}
        {queued > 0 && (
          <p className="wk-hint wk-row" data-testid="confirm-queue">
            <span>{t.moreWaiting(queued)}</span>
            <button type="button" className="wk-link wk-link--danger" disabled={busy} onClick={confirmations.rejectAll}>
              {t.rejectAll}
            </button>
          </p>
        )}
      </div>
    </Modal>
  )
}
