import type { ReactNode } from 'react'
import { useWidget } from '../context.ts'

const WhatsappIcon = () => (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
    <path fill="#25D366" d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2Z" />
    <path fill="#fff" d="M16.9 14.3c-.3-.1-1.6-.8-1.8-.9-.3-.1-.4-.1-.6.1l-.8 1c-.2.2-.3.2-.6.1a7 7 0 0 1-3.4-3c-.3-.4.3-.4.7-1.3.1-.2 0-.3 0-.4l-.8-2c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-1 2.2c0 1.3 1 2.6 1.1 2.8.1.2 1.9 3 4.7 4.1 1.8.7 2.5.8 3.3.6.6-.1 1.6-.7 1.8-1.3.2-.6.2-1.2.2-1.3-.1-.2-.3-.2-.6-.4Z" />
  </svg>
)

/**
 * SPEC.md section 2: an icon button per social provider and the messaging-app login, each only
 * when app config enables it.
 */
export function SocialButtons() {
  const { wallet, config } = useWidget()
  const buttons: { label: string; icon: ReactNode; onClick: () => void }[] = []
  if (config.whatsapp.enabled) buttons.push({ label: 'Whatsapp', icon: <WhatsappIcon />, onClick: () => wallet.navigate('whatsapp') })
  if (buttons.length === 0) return null
  return (
    <div className="wk-socials">
      {buttons.map((b) => (
        <button key={b.label} type="button" className="wk-social" aria-label={`Continue with ${b.label}`} title={b.label} onClick={b.onClick}>
          {b.icon}
        </button>
      ))}
    </div>
  )
}
