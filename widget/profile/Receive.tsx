import { Qr } from '../ui/Qr.tsx'
import { useCopy } from '../use-copy.ts'
import { useT } from '../context.ts'

/** The 'receive' page: the address as a QR (350 px, error correction M, ui/Qr.tsx) and a copy action. */
export function Receive({ address }: { address: string }) {
  const [notice, copy] = useCopy()
  const t = useT()
  return (
    <div className="wk-stack wk-center">
      <Qr data={address} label={t.qrOf(address)} />
      <code className="wk-code">{address}</code>
      <button type="button" className="wk-button wk-full" onClick={() => copy(address)}>
        {t.copyAddress}
      </button>
      <p className="wk-notice" role="status">
        {notice}
      </p>
    </div>
  )
}
