// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, expect, test } from 'vitest'
import { Widget, type WidgetContext } from '../context.ts'
import { Logo } from './Logo.tsx'

// App config's brand flag (useWalletKitBrand) selects the provider's logo or the app's logoUrl.

afterEach(cleanup)

const show = (useWalletKitBrand: boolean, logoUrl: string | null) =>
  render(
    <Widget.Provider value={{ locale: 'en' } as WidgetContext}>
      <Logo config={{ useWalletKitBrand, logoUrl }} />
    </Widget.Provider>,
  )

test('the brand flag on: the provider brand, even when the app has a logo', () => {
  show(true, 'https://app.example/logo.png')
  expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Wallet Kit')
  expect(screen.queryByAltText('App logo')).toBeNull()
})

test("the brand flag off: the app's own logo", () => {
  show(false, 'https://app.example/logo.png')
  expect(screen.getByRole('img').getAttribute('src')).toBe('https://app.example/logo.png')
  expect(screen.getByRole('img').getAttribute('alt')).toBe('App logo')
})

test('the brand flag off and no logo of its own: the provider brand rather than nothing', () => {
  show(false, null)
  expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Wallet Kit')
})
