import { useRef, useState, type ReactNode } from 'react'
import { errorDisplayMs } from '../constants.ts'
import { useWidget, useT } from '../context.ts'
import { lazyModule } from '../lazy-module.ts'
import { useTimedMessage } from '../use-timed.ts'
import type { SocialProvider } from './social.ts'

/** The sign-in code, with the provider scripts' loader, stays out of the frame's first route. */
const social = lazyModule(() => import('./social.ts'))

const icons: Record<SocialProvider | 'whatsapp', ReactNode> = {
  google: (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      <circle cx="12" cy="12" r="10" fill="#fff" />
      <path d="M17.5 12.2c0-.4 0-.8-.1-1.2H12v2.3h3.1a2.7 2.7 0 0 1-1.2 1.7v1.4h1.9c1.1-1 1.7-2.5 1.7-4.2Z" fill="#4285F4" />
      <path d="M12 18c1.6 0 2.9-.5 3.8-1.4l-1.9-1.5c-.5.4-1.2.6-1.9.6-1.5 0-2.8-1-3.2-2.4H6.8v1.5A6 6 0 0 0 12 18Z" fill="#34A853" />
      <path d="M8.8 13.3a3.6 3.6 0 0 1 0-2.4V9.4H6.8a6 6 0 0 0 0 5.4l2-1.5Z" fill="#FBBC05" />
      <path d="M12 8.4c.9 0 1.6.3 2.2.9l1.7-1.7A6 6 0 0 0 6.8 9.4l2 1.5c.4-1.4 1.7-2.5 3.2-2.5Z" fill="#EA4335" />
    </svg>
  ),
  apple: (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      <path
        fill="currentColor"
        d="M16.4 12.6c0-2 1.6-2.9 1.7-3-1-1.4-2.4-1.6-2.9-1.6-1.2-.1-2.4.7-3 .7s-1.6-.7-2.6-.7a3.9 3.9 0 0 0-3.3 2c-1.4 2.4-.4 6 1 8 .7 1 1.5 2 2.5 2s1.4-.7 2.6-.7 1.5.7 2.6.6c1.1 0 1.7-1 2.4-2 .8-1.1 1.1-2.2 1.1-2.3 0 0-2.1-.8-2.1-3ZM14.5 6.6c.5-.7.9-1.6.8-2.6-.8 0-1.8.6-2.4 1.2-.5.6-1 1.6-.8 2.5.9.1 1.8-.4 2.4-1.1Z"
      />
    </svg>
  ),
  telegram: (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      <circle cx="12" cy="12" r="10" fill="#2AABEE" />
      <path
        fill="#fff"
        d="m6.5 11.8 9.6-3.7c.4-.2.9.1.7.8l-1.6 7.7c-.1.5-.5.7-.9.4l-2.5-1.8-1.2 1.2c-.2.2-.3.2-.5.2l.2-2.6 4.6-4.2c.2-.2 0-.3-.3-.1l-5.7 3.6-2.4-.8c-.5-.2-.5-.5.1-.7Z"
      />
    </svg>
  ),
  whatsapp: (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      <path fill="#25D366" d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2Z" />
      <path
        fill="#fff"
        d="M16.9 14.3c-.3-.1-1.6-.8-1.8-.9-.3-.1-.4-.1-.6.1l-.8 1c-.2.2-.3.2-.6.1a7 7 0 0 1-3.4-3c-.3-.4.3-.4.7-1.3.1-.2 0-.3 0-.4l-.8-2c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-1 2.2c0 1.3 1 2.6 1.1 2.8.1.2 1.9 3 4.7 4.1 1.8.7 2.5.8 3.3.6.6-.1 1.6-.7 1.8-1.3.2-.6.2-1.2.2-1.3-.1-.2-.3-.2-.6-.4Z"
      />
    </svg>
  ),
}

const labels = { google: 'Google', apple: 'Apple', telegram: 'Telegram', whatsapp: 'Whatsapp' } as const

/**
 * The connect home's icon button per social provider and the messaging-app login, each only
 * when app config enables it. A failed social sign-in shows 'Something went wrong' for 3 s.
 */
export function SocialButtons() {
  const { wallet, client, config } = useWidget()
  const inFlight = useRef(false)
  const [busy, setBusy] = useState<SocialProvider | null>(null)
  const [error, showError] = useTimedMessage(errorDisplayMs)
  const t = useT()
  const enabled = (['google', 'apple', 'telegram', 'whatsapp'] as const).filter((p) => config[p].enabled)
  if (enabled.length === 0) return null

  async function run(provider: SocialProvider) {
    if (inFlight.current) return
    inFlight.current = true
    setBusy(provider)
    try {
      const m = await social.get()
      await m.signIn({ wallet, client, config }, provider).catch((e: unknown) => showError(m.failureText(e, t, labels[provider])))
    } catch {
      showError(t.somethingWrong)
    } finally {
      inFlight.current = false
      setBusy(null)
    }
  }

  return (
    <div className="wk-stack wk-full">
      <div className="wk-socials">
        {enabled.map((p) => (
          <button
            key={p}
            type="button"
            className="wk-social"
            aria-label={t.continueWith(labels[p])}
            title={labels[p]}
            disabled={busy !== null}
            onClick={() => (p === 'whatsapp' ? wallet.navigate('whatsapp') : void run(p))}
          >
            {busy === p ? <span className="wk-spinner" /> : icons[p]}
          </button>
        ))}
      </div>
      <p className="wk-error" role="alert">
        {error}
      </p>
    </div>
  )
}
