export function Footer({ show }: { show: boolean }) {
  if (!show) return null
  return (
    <footer className="wk-footer">
      Powered by <strong>Wallet Kit</strong>
    </footer>
  )
}
