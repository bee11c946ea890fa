import { useCallback, useEffect, useState } from 'react'
import { createPasskeyClient, type PasskeyClient, type PasskeyInfo } from '../../../sdk/passkeys.ts'
import { createPasskey } from '../../connect/passkey-ceremony.ts'
import { passkeyError, passkeyText } from '../../connect/passkey-text.ts'
import { useWidget } from '../../context.ts'
import { useT } from '../../i18n.ts'
import { useStore } from '../../use-store.ts'

const day = (iso: string, locale: string) => new Date(iso).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' })

/**
 * The profile's 'passkeys' page: the embedded wallet's passkeys, each removable, and Add (the
 * browser's ceremony, then the service's check). A cancelled ceremony says so and stores nothing.
 */
export function Passkeys() {
  const { wallet, client, locale } = useWidget()
  const text = passkeyText[locale]
  const t = useT()
  const embedded = useStore(wallet.ui, (s) => !!s.session && !s.session.walletConnect)
  const [service] = useState<PasskeyClient | null>(() => (client.context ? createPasskeyClient(client.context) : null))
  const [list, setList] = useState<PasskeyInfo[] | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null)

  const fail = (error: unknown) => setStatus({ error: true, text: passkeyError(error, text, 'addCancelled') })
  const reload = useCallback(async () => {
    if (!service) return
    setList((await service.list()).passkeys)
  }, [service])
  useEffect(() => {
    reload().catch((error: unknown) => setStatus({ error: true, text: passkeyError(error, text, 'addCancelled') }))
  }, [reload, text])

  // Passkeys sign in to the embedded wallet: a WalletConnect or host-page wallet has none here.
  if (!embedded || !service) return <p className="wk-text">{t.notConnected}</p>

  const run = async (what: string, step: () => Promise<string>) => {
    setBusy(what)
    setStatus(null)
    try {
      setStatus({ error: false, text: await step() })
      await reload()
    } catch (error) {
      fail(error)
    } finally {
      setBusy(null)
    }
  }
  const add = () =>
    run('add', async () => {
      const credential = await createPasskey(await service.registrationOptions())
      await service.register(credential)
      return text.added
    })
  const remove = (id: string) =>
    run(id, async () => {
      await service.remove(id)
      return text.removed
    })

  return (
    <div className="wk-stack">
      <p className="wk-text">{text.intro}</p>
      {list === null && !status && (
        <div className="wk-waiting">
          <span className="wk-spinner" role="img" aria-label={t.loading} />
        </div>
      )}
      {list?.length === 0 && <p className="wk-hint">{text.none}</p>}
      {list && list.length > 0 && (
        <ul className="wk-list wk-stack" aria-label={text.list} data-testid="passkey-list">
          {list.map((p) => (
            <li key={p.id} className="wk-card wk-row">
              <div className="wk-grow">
                <div>{p.name}</div>
                <div className="wk-muted">
                  {text.addedOn(day(p.createdAt, locale))}
                  {p.lastUsedAt && `, ${text.usedOn(day(p.lastUsedAt, locale))}`}
                </div>
              </div>
              <button
                type="button"
                className="wk-link wk-link--danger"
                aria-label={`${text.remove} ${p.name}`}
                disabled={busy !== null}
                onClick={() => void remove(p.id)}
              >
                {text.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="wk-button wk-button--primary" disabled={busy !== null} onClick={() => void add()}>
        {busy === 'add' ? text.adding : text.add}
      </button>
      <p className={status?.error ? 'wk-error' : 'wk-notice'} role={status?.error ? 'alert' : 'status'}>
        {status?.text}
      </p>
    </div>
  )
}
