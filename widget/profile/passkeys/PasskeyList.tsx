import type { PasskeyInfo } from '../../../sdk/passkeys.ts'
import { passkeyText } from '../../connect/passkey-text.ts'
import { useWidget, useT } from '../../context.ts'

const day = (iso: string, locale: string) => new Date(iso).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' })

/** The passkeys page's list: each passkey's name and dates, and its Remove (disabled while anything runs). */
export function PasskeyList(props: { list: PasskeyInfo[] | null; loading: boolean; busy: string | null; onRemove(passkey: PasskeyInfo): void }) {
  const { locale } = useWidget()
  const text = passkeyText[locale]
  const t = useT()
  const { list } = props
  if (props.loading)
    return (
      <div className="wk-waiting">
        <span className="wk-spinner" role="img" aria-label={t.loading} />
      </div>
    )
  if (list?.length === 0) return <p className="wk-hint">{text.none}</p>
  if (!list?.length) return null
  return (
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
            disabled={props.busy !== null}
            onClick={() => props.onRemove(p)}
          >
            {text.remove}
          </button>
        </li>
      ))}
    </ul>
  )
}
