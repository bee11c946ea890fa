import { useWidget, useT } from '../context.ts'
import { deployment } from '../deployment.ts'
import { formatAmount } from '../format.ts'
import type { Onramp } from './use-onramp.ts'

/** Coin amounts are small numbers: 2 decimals would show 0.0031 ETH as 0, so keep 6 significant digits. */
const cryptoAmount = (value: number | string) => Number(value).toLocaleString('en-US', { maximumSignificantDigits: 6 })

/**
 * The profile's 'onramp' page (titled 'Buy'): amount in fiat, the fiat and crypto choosers, the live
 * quote. Continue is disabled while the quote has an error or no data; it opens the provider's
 * hosted on-ramp page in a new tab.
 */
export function Buy({ onramp, address, choose }: { onramp: Onramp; address: string; choose: (list: 'fiat' | 'crypto') => void }) {
  const { config } = useWidget()
  const t = useT()
  const { fiat, crypto, amount, setAmount, quote, quotedAmount } = onramp
  const data = quote?.data
  const error = quote?.error
  const canContinue = !!data && !error && !!fiat && !!crypto && quotedAmount !== null

  function continueToPay() {
    if (!canContinue || !config.rampableClientSecret) return
    const query = new URLSearchParams({
      clientSecret: config.rampableClientSecret,
      receiverWalletAddress: address,
      inputAmount: quotedAmount!,
      inputCurrency: fiat.id,
      outputCurrency: crypto.id,
    })
    // From the frame itself: the click's user activation is here.
    window.open(`${deployment().onramp}?${query}`, '_blank', 'noopener')
  }

  return (
    <div className="wk-stack">
      <label className="wk-muted" htmlFor="wk-amount">
        {t.youPay}
      </label>
      <div className="wk-row">
        <input
          id="wk-amount"
          className="wk-input"
          inputMode="decimal"
          placeholder="0"
          value={amount}
          onChange={(e) => {
            // Digits and at most two decimals, as the ramp takes them.
            const typed = e.target.value.replace(/[^\d.]/g, '')
            if (/^\d*(\.\d{0,2})?$/.test(typed)) setAmount(typed)
          }}
        />
        <button type="button" className="wk-button wk-chooser" onClick={() => choose('fiat')} aria-label={t.selectCurrency}>
          {fiat?.currency ?? '—'} ▾
        </button>
      </div>
      <span className="wk-muted">{t.youReceive}</span>
      <button type="button" className="wk-list-row wk-card" onClick={() => choose('crypto')} aria-label={t.selectCrypto}>
        {crypto && <img className="wk-chain-icon" src={crypto.logo} alt="" />}
        <span className="wk-grow">{crypto?.label ?? '—'}</span>
        <span data-testid="quote-receive">{data ? `≈ ${cryptoAmount(data.total_received_amount_in_crypto)} ${data.coin}` : ''}</span>
      </button>
      {data && (
        <dl className="wk-details" data-testid="quote">
          <div className="wk-detail">
            <dt>{t.rate}</dt>
            <dd>
              1 {data.coin} = {formatAmount(String(data.rate_amount))} {data.currency}
            </dd>
          </div>
          <div className="wk-detail">
            <dt>{t.fee}</dt>
            <dd>
              {formatAmount(String(data.total_fee_amount))} {data.currency}
            </dd>
          </div>
        </dl>
      )}
      <p className="wk-error" role="alert">
        {error instanceof Error ? error.message : null}
      </p>
      <button type="button" className="wk-button wk-button--primary" disabled={!canContinue} onClick={continueToPay}>
        {t.continue}
      </button>
    </div>
  )
}
