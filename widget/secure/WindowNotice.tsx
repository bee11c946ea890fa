import { messages } from '../i18n.ts'

/** A one-line page of the secure window, shown before (or instead of) the widget. */
export function WindowNotice({ text }: { text: 'notOpenedByWallet' | 'noApp' | 'windowFailed' | 'returning' }) {
  // Its strings are loaded (bootSecureWindow) before anything shows.
  const locale = new URLSearchParams(location.search).get('locale') === 'id' ? 'id' : 'en'
  return (
    <main className="wk-window-notice" data-testid="secure-window-notice">
      <p role="status">{messages[locale][text]}</p>
    </main>
  )
}
