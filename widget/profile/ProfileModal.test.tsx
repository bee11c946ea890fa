// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { ProfileModal } from './ProfileModal.tsx'
import { account, fakeService, renderWidget } from './smart-account/smart-account.fixture.tsx'

// The profile home's Smart Wallet row: only for an app with isAAEnabled, and
// only for the embedded wallet (the owner of the smart accounts); it opens the lazy smart-account page.

afterEach(cleanup)

describe('the Smart Wallet row', () => {
  test('absent when the app has not enabled account abstraction', async () => {
    await renderWidget(<ProfileModal />, { isAAEnabled: false, service: fakeService([]).service })
    expect(screen.getByRole('button', { name: 'Receive' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Smart Wallet' })).toBeNull()
  })

  test('absent for a wallet paired over WalletConnect, even where the app enables it', async () => {
    await renderWidget(<ProfileModal />, { isAAEnabled: true, session: 'walletconnect', service: fakeService([]).service })
    expect(screen.getByRole('button', { name: 'Receive' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Smart Wallet' })).toBeNull()
  })

  test("shown when it is enabled; it opens the page titled 'Smart Wallet', and Back returns home", async () => {
    const { service } = fakeService([account(31337, 'not_deployed', 'local-1')])
    const { wallet } = await renderWidget(<ProfileModal />, { isAAEnabled: true, service })
    expect(service.create).not.toHaveBeenCalled()
    await act(async () => screen.getByRole('button', { name: 'Smart Wallet' }).click())
    expect(wallet.ui.get()).toMatchObject({ page: 'smart-account', history: ['home'] })
    expect(await screen.findByText('Not Activated')).toBeTruthy()
    expect(screen.getByTestId('profile-smart-account')).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Smart Wallet' })).toBeTruthy()
    await act(async () => screen.getByRole('button', { name: 'Back' }).click())
    expect(wallet.ui.get()).toMatchObject({ page: 'home', history: [] })
  })
})
