import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'
import { Widget, type WidgetContext } from './context.ts'
import { loadMessages } from './i18n.ts'
import { preloadAll } from './lazy-module.ts'
import './styles.css'
import './components.css'

/** How long after mounting the other pages wait before they are fetched (the first calls come first). */
const preloadAfterMs = 1000

/**
 * The frame's UI: React, the modals and their styles. The core (main.ts) answers the page without
 * it; it loads beside the core and renders whatever the core's state already says (a modal a
 * request opened meanwhile shows as soon as this has rendered).
 */
export async function mountUi(value: WidgetContext): Promise<void> {
  // Another locale's strings load first (English is in this chunk).
  await loadMessages(value.locale)
  render(value)
  // The pages not shown yet are fetched later: a second after the first answers, once idle.
  setTimeout(preloadAll, preloadAfterMs)
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
