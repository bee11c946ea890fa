// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { AppConfig } from '../../sdk/index.ts'
import { ChainModal } from '../chain/ChainModal.tsx'
import { PermissionModal } from '../confirm/PermissionModal.tsx'
import { ConnectModal } from '../connect/ConnectModal.tsx'
import { WalletCreated } from '../connect/WalletCreated.tsx'
import { connectConfig, renderConnect } from '../connect/connect.fixture.tsx'
import { alice, setUi } from '../wallet.fixture.ts'
import { ProfileModal } from './ProfileModal.tsx'
import { renderProfileWidget } from './profile.fixture.tsx'

// Copy on the wallet-created page (the recovery secret), on the profile home and on the Receive
// page (the address): what is copied, and 'Copied to clipboard' shown for 3 s. And the powered-by
// footer, shown unless app config's showPoweredBy is false.

let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>
beforeEach(() => {
  writeText = vi.fn(async (_text: string) => {})
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

/** The profile modal, signed in as alice, with app config `config`. */
const renderProfile = (config: Partial<AppConfig> = {}) => renderProfileWidget(<ProfileModal />, { config })

const notice = () => screen.getByRole('status').textContent
const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))

/** Clicks `button`, then checks what was copied and that the notice shows for 3 s, not longer. */
async function copiedFor3s(button: HTMLElement, text: string) {
  vi.useFakeTimers()
  expect(notice()).toBe('')
  fireEvent.click(button)
  await tick(0)
  expect(writeText).toHaveBeenCalledWith(text)
  expect(notice()).toBe('Copied to clipboard')
  await tick(2900)
  expect(notice()).toBe('Copied to clipboard')
  await tick(200)
  expect(notice()).toBe('')
}

test("wallet-created: Copy copies the recovery secret; 'Copied to clipboard' shows 3 s", async () => {
  const secret = `0x${'cd'.repeat(32)}`
  await renderConnect(<WalletCreated />, { setup: (wallet) => setUi(wallet, { secret0: secret }) })
  await copiedFor3s(screen.getByRole('button', { name: 'Copy' }), secret)
})

test("profile home: Copy copies the address; 'Copied to clipboard' shows 3 s", async () => {
  await renderProfile()
  await copiedFor3s(screen.getByRole('button', { name: 'Copy' }), alice.address)
})

test("Receive: 'Copy address' copies the address; 'Copied to clipboard' shows 3 s", async () => {
  const { wallet } = await renderProfile()
  act(() => wallet.navigate('receive'))
  const button = await screen.findByRole('button', { name: 'Copy address' })
  await copiedFor3s(button, alice.address)
})

const footer = () => screen.queryByText('Powered by', { exact: false })

test.each([
  [true, true],
  [undefined, true],
  [false, false],
])('showPoweredBy %s: the connect modal shows the powered-by line: %s', async (showPoweredBy, shown) => {
  await renderConnect(<ConnectModal />, { config: connectConfig({ showPoweredBy } as Partial<AppConfig>) })
  expect(screen.getByRole('heading', { name: 'Login or Sign Up' })).toBeTruthy()
  expect(footer() !== null).toBe(shown)
  if (shown) expect(footer()!.textContent).toBe('Powered by Wallet Kit')
})

test.each([
  [true, true],
  [false, false],
])('showPoweredBy %s: the profile modal shows the powered-by line: %s', async (showPoweredBy, shown) => {
  await renderProfile({ showPoweredBy })
  expect(screen.getByRole('button', { name: 'Receive' })).toBeTruthy()
  expect(footer() !== null).toBe(shown)
})

test.each([
  ['chain', <ChainModal key="chain" />, 'Switch Chain'],
  ['need-permission', <PermissionModal key="permission" />, 'Permission needed'],
] as const)('the %s modal too shows the powered-by line unless showPoweredBy is false', async (_, modal, title) => {
  for (const [showPoweredBy, shown] of [
    [true, true],
    [undefined, true],
    [false, false],
  ] as const) {
    await renderConnect(modal, { config: connectConfig({ showPoweredBy } as Partial<AppConfig>) })
    expect(screen.getByRole('heading', { name: title })).toBeTruthy()
    expect(footer() !== null, `showPoweredBy ${showPoweredBy}`).toBe(shown)
    cleanup()
  }
})
