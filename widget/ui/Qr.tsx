import QRCodeStyling from 'qr-code-styling'
import { useEffect, useRef } from 'react'
import { qrErrorCorrection, qrProblem } from './qr-rules.ts'

/**
 * A QR of `data`, 350 px, error correction M, version 1 to 40 (the address to
 * receive at, a pairing URI); what no such code can hold shows its error line
 * instead ('No input text', or 'The amount of data is too big to be stored in a QR Code').
 */
export function Qr({ data, label, testId }: { data: string; label: string; testId?: string }) {
  const box = useRef<HTMLDivElement>(null)
  const problem = qrProblem(data)
  useEffect(() => {
    const el = box.current
    if (!el || problem) return
    const qr = new QRCodeStyling({
      width: 350,
      height: 350,
      type: 'svg',
      data,
      margin: 8,
      // typeNumber 0: the smallest version from 1 to 40 that holds the data.
      qrOptions: { typeNumber: 0, errorCorrectionLevel: qrErrorCorrection },
      dotsOptions: { type: 'rounded', color: '#111318' },
      backgroundOptions: { color: '#ffffff' },
    })
    el.replaceChildren()
    qr.append(el)
  }, [data, problem])
  if (problem)
    return (
      <p className="wk-error" role="alert" data-testid={testId}>
        {problem}
      </p>
    )
  return <div ref={box} className="wk-qr" role="img" aria-label={label} data-testid={testId} />
}
