import QRCodeStyling from 'qr-code-styling'
import { useEffect, useRef } from 'react'

/** SPEC.md section 9: a QR of `data`, 350 px, error correction M (the address to receive at, a pairing URI). */
export function Qr({ data, label, testId }: { data: string; label: string; testId?: string }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const qr = new QRCodeStyling({
      width: 350,
      height: 350,
      type: 'svg',
      data,
      margin: 8,
      qrOptions: { errorCorrectionLevel: 'M' },
      dotsOptions: { type: 'rounded', color: '#111318' },
      backgroundOptions: { color: '#ffffff' },
    })
    el.replaceChildren()
    qr.append(el)
  }, [data])
  return <div ref={box} className="wk-qr" role="img" aria-label={label} data-testid={testId} />
}
