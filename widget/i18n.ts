import { en, type Messages } from './i18n-en.ts'

export type { Messages }

export type Locale = 'en' | 'id'

/** Every locale's strings; a locale other than English is loaded with the frame that shows it (loadMessages). */
export const messages: Record<Locale, Messages> = { en, id: en }

/** Loads `locale`'s strings before the first render (the frame's first chunk carries English only); English if they fail to load. */
export async function loadMessages(locale: Locale): Promise<void> {
  if (locale !== 'id') return
  try {
    messages.id = (await import('./i18n-id.ts')).id
  } catch (err) {
    console.warn('wallet-kit: the Indonesian strings did not load, showing English:', err)
  }
}
