import { useT } from '../i18n.ts'

export function Footer({ show }: { show: boolean }) {
  const t = useT()
  if (!show) return null
  return (
    <footer className="wk-footer">
      {t.poweredBy} <strong>Wallet Kit</strong>
    </footer>
  )
}
