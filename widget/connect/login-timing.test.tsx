// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { standInScriptPaths } from '../../sdk/sign-in-scripts.ts'
import { alice, testWallet, setUi } from '../wallet.fixture.ts'
import { Otp } from './Otp.tsx'
import { SocialButtons } from './SocialButtons.tsx'
import { Whatsapp } from './Whatsapp.tsx'
import { signIn } from './social.ts'
import { connectConfig, renderConnect } from './connect.fixture.tsx'

// A user who already has a wallet is connected, and the modal closes, only after the post-login
// delay: 200 ms after a social sign-in, 500 ms after a one-time code. The code field keeps digits
// only, takes a paste trimmed to 6 of them, and checks the code once it has all 6. Its error line
// clears after 3 s.

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  delete (window as { Telegram?: unknown }).Telegram
})

const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))

/** The wallet service's answer for a user who has a wallet; like the sdk, it puts the tokens in the holder. */
const existingWallet = (owner: { tokens: { set(t: object): void } }) => async () => {
  owner.tokens.set({ walletToken: alice.token, refreshToken: alice.refreshToken, address: alice.address })
  return { isWalletCreated: true, walletToken: alice.token, refreshToken: alice.refreshToken, addresses: [{ network: 'evm', address: alice.address }] }
}

test('social sign-in of an existing wallet: stored at once, connected and closed 200 ms later, not sooner', async () => {
  const { wallet, owner, events } = testWallet()
  await wallet.restore()
  const accounts = wallet.requestAccounts()
  let answered: readonly string[] | null = null
  void accounts.then((a) => (answered = a))
  const telegram = vi.fn(existingWallet(owner))
  // The provider's API is on the page already: no script to load.
  Object.assign(window, { Telegram: { Login: { auth: (_: unknown, done: (u: object) => void) => done({ id: 1, auth_date: 1700000000, hash: 'ab' }) } } })
  const config = connectConfig({
    telegram: { enabled: true, botId: '7', botUsername: 'b', scriptUrl: `${location.origin}${standInScriptPaths.telegram}` },
  } as never)
  const done = signIn({ wallet, client: { auth: { telegram } } as never, config }, 'telegram')
  await vi.advanceTimersByTimeAsync(0)
  expect(telegram).toHaveBeenCalledTimes(1)
  expect(wallet.ui.get().session?.address).toBe(alice.address)
  expect(wallet.ui.get().view).toBe('connect')
  await vi.advanceTimersByTimeAsync(199)
  expect(wallet.ui.get().view).toBe('connect')
  expect(events.map(([e]) => e)).not.toContain('accountsChanged')
  expect(answered).toBeNull()
  await vi.advanceTimersByTimeAsync(1)
  expect(wallet.ui.get().view).toBeNull()
  expect(events).toContainEqual(['accountsChanged', [alice.address]])
  expect(answered).toEqual([alice.address])
  await done
})

async function otpPage(verifyOtp: (params: { verificationToken: string; otp: string }) => Promise<unknown>) {
  const verify = vi.fn(verifyOtp)
  const page = await renderConnect(<Otp />, {
    client: { auth: { verifyOtp: verify } },
    setup: (wallet) => setUi(wallet, { otpTarget: { channel: 'email', to: 'a@example.com', verificationToken: 'v' } }),
  })
  return { ...page, verify, input: () => screen.getByLabelText('Verification code') as HTMLInputElement }
}

test('OTP of an existing wallet: connected and closed 500 ms after the code is accepted, not sooner', async () => {
  let owner!: { tokens: { set(t: object): void } }
  const page = await otpPage(() => existingWallet(owner)())
  owner = page.owner
  fireEvent.change(page.input(), { target: { value: '123456' } })
  await tick(0)
  expect(page.verify).toHaveBeenCalledWith({ verificationToken: 'v', otp: '123456' })
  expect(page.wallet.ui.get().session?.address).toBe(alice.address)
  await tick(499)
  expect(page.wallet.ui.get().view).toBe('connect')
  await tick(1)
  expect(page.wallet.ui.get().view).toBeNull()
})

test('the code field keeps digits only and checks the code once, when the 6th digit arrives', async () => {
  const { verify, input } = await otpPage(() => new Promise(() => {}))
  fireEvent.change(input(), { target: { value: '1a2-b3 4.5' } })
  expect(input().value).toBe('12345')
  expect(verify).not.toHaveBeenCalled()
  // Nothing is checked, nor complained about, before the 6th digit.
  expect(screen.getByRole('alert').textContent).toBe('')
  fireEvent.change(input(), { target: { value: '12345x' } })
  expect(input().value).toBe('12345')
  expect(verify).not.toHaveBeenCalled()
  fireEvent.change(input(), { target: { value: '123456' } })
  expect(input().value).toBe('123456')
  expect(verify).toHaveBeenCalledTimes(1)
  expect(verify).toHaveBeenCalledWith({ verificationToken: 'v', otp: '123456' })
})

const paste = (el: HTMLElement, text: string) => fireEvent.paste(el, { clipboardData: { getData: () => text } })

test.each([
  ['with spaces and a line break around it', '  654321\n', '654321'],
  ['longer than 6 digits', '65432198', '654321'],
  ['with a dash in it', '654-321', '654321'],
])('a pasted code %s is trimmed to its 6 digits and checked', async (_, text, code) => {
  const { verify, input } = await otpPage(() => new Promise(() => {}))
  paste(input(), text)
  expect(input().value).toBe(code)
  expect(verify).toHaveBeenCalledWith({ verificationToken: 'v', otp: code })
})

test('a paste of fewer than 6 digits fills them in and waits for the rest', async () => {
  const { verify, input } = await otpPage(() => new Promise(() => {}))
  paste(input(), ' 12 3 ')
  expect(input().value).toBe('123')
  expect(verify).not.toHaveBeenCalled()
})

test("a refused code's error line is still there at 2.9 s and gone at 3.1 s", async () => {
  const { input } = await otpPage(async () => Promise.reject(new Error('Invalid OTP')))
  fireEvent.change(input(), { target: { value: '123456' } })
  await tick(0)
  const line = () => screen.getByRole('alert').textContent
  expect(line()).toBe('Invalid OTP')
  await tick(2900)
  expect(line()).toBe('Invalid OTP')
  await tick(200)
  expect(line()).toBe('')
})

/** The error lines of the page, joined. */
const errors = () =>
  screen
    .getAllByRole('alert')
    .map((a) => a.textContent)
    .join('')

test("a failed social sign-in's 'Something went wrong' is still there at 2.9 s and gone at 3.1 s", async () => {
  // The user closes the provider's window: Telegram answers false.
  Object.assign(window, { Telegram: { Login: { auth: (_: unknown, done: (u: false) => void) => done(false) } } })
  const config = connectConfig({
    telegram: { enabled: true, botId: '7', botUsername: 'b', scriptUrl: `${location.origin}${standInScriptPaths.telegram}` },
  } as never)
  await renderConnect(<SocialButtons />, { client: { auth: { telegram: vi.fn() } }, config })
  fireEvent.click(screen.getByRole('button', { name: 'Continue with Telegram' }))
  await act(async () => {
    await vi.dynamicImportSettled()
    await vi.advanceTimersByTimeAsync(0)
  })
  expect(errors()).toBe('Something went wrong')
  await tick(2900)
  expect(errors()).toBe('Something went wrong')
  await tick(200)
  expect(errors()).toBe('')
})

test("WhatsApp: 'Invalid phone number' is still there at 2.9 s and gone at 3.1 s", async () => {
  const loginWhatsapp = vi.fn()
  await renderConnect(<Whatsapp />, { client: { auth: { loginWhatsapp } } })
  fireEvent.change(screen.getByPlaceholderText('6281234567890'), { target: { value: '0812' } })
  await act(async () => void fireEvent.submit(screen.getByPlaceholderText('6281234567890').closest('form')!))
  expect(errors()).toBe('Invalid phone number')
  expect(loginWhatsapp).not.toHaveBeenCalled()
  await tick(2900)
  expect(errors()).toBe('Invalid phone number')
  await tick(200)
  expect(errors()).toBe('')
})
