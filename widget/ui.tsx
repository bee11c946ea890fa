import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'
import { Widget, type WidgetContext } from './context.ts'
import { loadMessages } from './i18n.ts'
import { preloadAll, whenQuiet } from './lazy-module.ts'
import { waitsForUser } from './ui-state.ts'
import './styles.css'
import './components.css'

/**
 * The frame's UI: React, the modals and their styles. The core (frame.ts) answers the page without
 * it: the page preloads this code beside the core's, and the core runs it once it has answered.
 * It renders whatever the core's state already says (a modal a request opened meanwhile shows as
 * soon as this has rendered).
 */
export async function mountUi(value: WidgetContext): Promise<void> {
  // Another locale's strings load first (English is in this chunk).
  await loadMessages(value.locale)
  // Rendering the app for the first time takes a while: not during the page's first burst of calls,
  // but at once when a modal is asked for (a request that needs a screen, or the page's open()).
  await new Promise<void>((resolve) => {
    const wanted = () => value.wallet.ui.get().view !== null
    if (wanted()) return resolve()
    const go = () => {
      stop()
      resolve()
    }
    const stop = value.wallet.ui.subscribe(() => wanted() && go())
    whenQuiet(go)
  })
  render(value)
  // The pages not shown yet are fetched in the background once the page's first calls have been
  // answered and it has stopped calling for a moment (lazy-module.ts); one the user opens loads at once.
  // None while a request waits for the user: that request's screen and call come first.
  preloadAll(waitsForUser(value.wallet.ui))
}

export function render(value: WidgetContext) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Widget.Provider value={value}>
        <App />
      </Widget.Provider>
    </StrictMode>,
  )
}
