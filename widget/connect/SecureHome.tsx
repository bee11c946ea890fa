import { useWidget } from '../context.ts'
import { useT } from '../i18n.ts'
import { SecureWindowSignIn } from '../secure/SecureWindowButton.tsx'
import { Logo } from '../ui/Logo.tsx'
import { titleId } from '../ui/Modal.tsx'
import { WalletShortcuts } from './WalletButtons.tsx'

/** The connect home of a frame that signs in through the secure window (browser wallets still connect in the host page). */
export function SecureHome() {
  const { config } = useWidget()
  const t = useT()
  return (
    <div className="wk-stack wk-center">
      <Logo config={config} />
      <h2 className="wk-heading" id={titleId}>
        {t.loginTitle}
      </h2>
      <SecureWindowSignIn />
      <WalletShortcuts />
    </div>
  )
}
