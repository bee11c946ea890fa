// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { Widget, type WidgetContext } from '../context.ts'
import type { Onramp } from './use-onramp.ts'

afterEach(() => {
  cleanup()
  for (const meta of document.querySelectorAll('meta')) meta.remove()
  vi.restoreAllMocks()
  vi.resetModules()
})

const onramp = {
  fiat: { id: 'IDR', currency: 'IDR' },
  crypto: { id: 'eth', label: 'ETH', logo: 'data:image/png;base64,' },
  amount: '150000',
  setAmount: () => {},
  quote: { data: { total_received_amount_in_crypto: 0.003, coin: 'ETH', rate_amount: 50000000, currency: 'IDR', total_fee_amount: 1000 }, error: null },
  quotedAmount: '150000',
} as unknown as Onramp

test("Continue opens the deployment's on-ramp page (here another host), with the buy in its query", async () => {
  const meta = document.createElement('meta')
  meta.name = 'wallet-kit:onramp'
  meta.content = 'https://pay.example/buy'
  document.head.append(meta)
  const open = vi.spyOn(window, 'open').mockImplementation(() => null)
  const { Buy } = await import('./Buy.tsx')
  const ctx = { config: { rampableClientSecret: 'pk_test' }, locale: 'en' } as unknown as WidgetContext
  render(
    <Widget.Provider value={ctx}>
      <Buy onramp={onramp} address="0x00000000000000000000000000000000000000aa" choose={() => {}} />
    </Widget.Provider>,
  )
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
  expect(open).toHaveBeenCalledOnce()
  const [url, target, features] = open.mock.calls[0]!
  const opened = new URL(String(url))
  expect(`${opened.origin}${opened.pathname}`).toBe('https://pay.example/buy')
  expect(Object.fromEntries(opened.searchParams)).toEqual({
    clientSecret: 'pk_test',
    receiverWalletAddress: '0x00000000000000000000000000000000000000aa',
    inputAmount: '150000',
    inputCurrency: 'IDR',
    outputCurrency: 'eth',
  })
  expect([target, features]).toEqual(['_blank', 'noopener'])
})
