import QRCodeStyling from 'qr-code-styling'
import { useEffect, useRef } from 'react'
import { useCopy } from '../use-copy.ts'
import { useT } from '../i18n.ts'

/** SPEC.md section 9: QR size 350, error correction M. */
export function Receive({ address }: { address: string }) {
  const box = useRef<HTMLDivElement>(null)
  const [notice, copy] = useCopy()
  const t = useT()
  useEffect(() => {
    const el = box.current
    if (!el) return
    const qr = new QRCodeStyling({
      width: 350,
      height: 350,
      type: 'svg',
      data: address,
      margin: 8,
      qrOptions: { errorCorrectionLevel: 'M' },
      dotsOptions: { type: 'rounded', color: '#111318' },
      backgroundOptions: { color: '#ffffff' },
    })
    el.replaceChildren()
    qr.append(el)
  }, [address])
  return (
    <div className="wk-stack wk-center">
      <div ref={box} className="wk-qr" role="img" aria-label={`QR code of ${address}`} />
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
