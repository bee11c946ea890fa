// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { Home } from './Home.tsx'
import { connectConfig, renderConnect } from './connect.fixture.tsx'

// The username and password form: off unless app config turns it on; both fields required; a
// returning user connected after OTP's 500 ms delay; a failure shows the service's message.

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const NoForm = () => null
const on = connectConfig({ usernamePassword: { enabled: true } })
const settle = () =>
  act(async () => {
    await vi.dynamicImportSettled()
  })
const fill = (username: string, password: string) => {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } })
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } })
}
const submit = () => act(async () => void fireEvent.submit(screen.getByTestId('password-form')))

test('off unless app config turns it on: no form, and its code is not even loaded', async () => {
  const imported = vi.fn()
  vi.doMock('./PasswordForm.tsx', () => {
    imported()
    return { PasswordForm: NoForm }
  })
  await renderConnect(<Home />, { config: connectConfig() })
  await settle()
  expect(screen.queryByLabelText('Username')).toBeNull()
  expect(imported).not.toHaveBeenCalled()
  vi.doUnmock('./PasswordForm.tsx')
})

test("on: both fields are required, else 'Please enter your username and password' and no call", async () => {
  const loginOrRegister = vi.fn()
  await renderConnect(<Home />, { config: on, client: { auth: { loginOrRegister } } })
  await settle()
  for (const [username, password] of [
    ['', ''],
    ['alice', ''],
    ['   ', 'a password'],
  ] as const) {
    fill(username, password)
    await submit()
    expect(screen.getByText('Please enter your username and password').getAttribute('role')).toBe('alert')
  }
  expect(loginOrRegister).not.toHaveBeenCalled()
})

test('a returning user is connected 500 ms after the login (the OTP and username delay), and the modal closes', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true })
  let owner: { tokens: { set(t: object): void } } | undefined
  const loginOrRegister = vi.fn(async () => {
    owner!.tokens.set({ walletToken: 'wt', refreshToken: 'rt', address: '0x00000000000000000000000000000000000000aa' })
    return { isWalletCreated: true, walletToken: 'wt', refreshToken: 'rt' }
  })
  const page = await renderConnect(<Home />, { config: on, client: { auth: { loginOrRegister } } })
  owner = page.owner
  await settle()
  fill('  alice  ', 'correct horse')
  vi.useFakeTimers()
  await submit()
  expect(loginOrRegister).toHaveBeenCalledExactlyOnceWith({ username: 'alice', password: 'correct horse' })
  await act(() => vi.advanceTimersByTimeAsync(499))
  expect(page.wallet.ui.get().view).toBe('connect')
  await act(() => vi.advanceTimersByTimeAsync(1))
  expect(page.wallet.ui.get().view).toBeNull()
  expect(page.wallet.ui.get().session?.address).toBe('0x00000000000000000000000000000000000000aa')
})

test('a failure shows the service message; a second submit while one is in flight is ignored', async () => {
  let fail = (_: Error) => {}
  const loginOrRegister = vi.fn(() => new Promise((_, reject) => (fail = reject)))
  await renderConnect(<Home />, { config: on, client: { auth: { loginOrRegister } } })
  await settle()
  fill('alice', 'pw')
  act(() => {
    fireEvent.submit(screen.getByTestId('password-form'))
    fireEvent.submit(screen.getByTestId('password-form'))
  })
  expect(loginOrRegister).toHaveBeenCalledTimes(1)
  await act(async () => fail(new Error('Password must be at least 8 characters')))
  expect(screen.getByText('Password must be at least 8 characters').getAttribute('role')).toBe('alert')
})
