// @vitest-environment happy-dom
import { act, cleanup, screen, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { alice } from '../../wallet.fixture.ts'
import { chainDisplayName } from './chain-names.ts'
import { SmartAccounts } from './SmartAccounts.tsx'
import { account, appChains, deployHash, fakeService, ownerSignature, renderWidget } from './smart-account.fixture.tsx'
import { smartAccountPollMs } from './use-smart-accounts.ts'

// The smart-account screen (its chain names, the list and its statuses, Activate) on a scripted service.

// The embedded account's signing code is a lazy module: loaded here once, so that fake timers need not wait for it.
beforeAll(() => import('../../confirm/presentation.ts'))
beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const settle = () => act(() => vi.advanceTimersByTimeAsync(0))
/** `ms` later, and what TanStack Query notifies on its next tick rendered. */
const later = async (ms: number) => {
  await act(() => vi.advanceTimersByTimeAsync(ms))
  await settle()
}
const row = (name: string) => screen.getAllByRole('listitem').find((item) => within(item).queryByText(name))!
const status = (name: string) => within(row(name)).getByTestId('smart-account-status').textContent

describe('the chain display names', () => {
  test("the screen's own names first (137 is 'Polygon', not the chain config's 'Polygon Mainnet'), then the app's chain config (the local chains), then the account's network", () => {
    const names = [1, 137, 56, 8453, 17000, 11155111, 31337, 31338, 424242].map((chainId) => chainDisplayName({ chainId, network: 'some-net' }, appChains))
    expect(names).toEqual(['Ethereum', 'Polygon', 'BSC', 'Base', 'Holesky', 'Sepolia', 'Local Chain 1', 'Local Chain 2', 'some-net'])
  })
})

describe('the list', () => {
  test("one row per account: chain name, short address with its copy action, the status as text ('Unknown' for any other value); Activate only where not activated", async () => {
    const { service } = fakeService([
      account(31337, 'not_deployed', 'local-1'),
      account(137, 'deploying', 'polygon'),
      account(11155111, 'deployed', 'sepolia'),
      account(424242, 'paused', 'mystery-net'),
    ])
    await renderWidget(<SmartAccounts />, { service })
    await settle()

    expect(service.create).toHaveBeenCalledWith({ owner: { id: alice.address.toLowerCase(), provider: 'wallet-kit' } }, expect.anything())
    expect(screen.getByRole('list', { name: 'Smart Wallet' })).toBeTruthy()
    expect(status('Local Chain 1')).toBe('Not Activated')
    expect(status('Polygon')).toBe('Activating')
    expect(status('Sepolia')).toBe('Activated')
    expect(status('mystery-net')).toBe('Unknown')
    expect(within(row('Local Chain 1')).getByText('0xaaaa…7a69')).toBeTruthy()
    expect(screen.getAllByRole('button', { name: 'Activate' })).toHaveLength(1)
    expect(within(row('Local Chain 1')).getByRole('button', { name: 'Activate' })).toBeTruthy()
    expect(screen.getAllByRole('button', { name: 'Copy' })).toHaveLength(4)
  })

  test('Copy copies the full smart-account address', async () => {
    const writeText = vi.fn(async () => {})
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    const { service } = fakeService([account(31337, 'deployed', 'local-1')])
    await renderWidget(<SmartAccounts />, { service })
    await settle()
    await act(async () => within(row('Local Chain 1')).getByRole('button', { name: 'Copy' }).click())
    expect(writeText).toHaveBeenCalledWith(account(31337, 'deployed').aaAddress)
    expect(screen.getByRole('status').textContent).toBe('Copied to clipboard')
    vi.unstubAllGlobals()
  })

  test('a list that does not load says why and offers Try Again', async () => {
    const { service } = fakeService([account(31337, 'not_deployed', 'local-1')])
    service.create.mockRejectedValueOnce(new Error('The service is down'))
    await renderWidget(<SmartAccounts />, { service })
    await settle()
    expect(screen.getByRole('alert').textContent).toBe('The service is down')
    await act(async () => screen.getByRole('button', { name: 'Try Again' }).click())
    await settle()
    expect(status('Local Chain 1')).toBe('Not Activated')
  })
})

describe('Activate', () => {
  test("asks the deploy hash, has the owner's wallet service sign the stored operation, submits it as it came; shows 'Activating...' meanwhile, then refreshes and polls until it is activated", async () => {
    const { service, steps, mine, holdSubmit } = fakeService([account(31337, 'not_deployed', 'local-1'), account(31338, 'deployed', 'local-2')])
    const submitted = holdSubmit()
    await renderWidget(<SmartAccounts />, { service })
    await settle()

    await act(async () => within(row('Local Chain 1')).getByRole('button', { name: 'Activate' }).click())
    await settle()
    const pending = within(row('Local Chain 1')).getByRole('button', { name: 'Activating...' }) as HTMLButtonElement
    expect(pending.disabled).toBe(true)
    expect(service.userOp.deploy.hash).toHaveBeenCalledWith({ accountId: 'acc-31337', isSponsored: true })
    // The wallet service signs the operation it stored, by its id: the frame sends no hash to sign (issue 24).
    expect(service.owner.signUserOperation).toHaveBeenCalledWith({ userOpId: 'op-1' })
    expect(service.userOp.submit).toHaveBeenCalledWith({ hash: deployHash, userOpId: 'op-1', signature: ownerSignature, isSponsored: true })

    submitted()
    await settle()
    expect(steps).toEqual(['create', 'hash acc-31337', 'submit', 'create'])
    expect(status('Local Chain 1')).toBe('Activating')
    expect(within(row('Local Chain 1')).queryByRole('button', { name: /Activat/ })).toBeNull()

    // Polled every second while an account is deploying, and no more once none is.
    await later(smartAccountPollMs)
    expect(steps.filter((s) => s === 'create')).toHaveLength(3)
    expect(status('Local Chain 1')).toBe('Activating')
    mine()
    await later(smartAccountPollMs)
    expect(steps.filter((s) => s === 'create')).toHaveLength(4)
    await act(() => vi.waitFor(() => expect(status('Local Chain 1')).toBe('Activated'), { timeout: 50, interval: 5 }))
    await later(5 * smartAccountPollMs)
    expect(steps.filter((s) => s === 'create')).toHaveLength(4)
  })

  test('a failed submit is shown on the row, and Activate is there to try again', async () => {
    const { service, steps } = fakeService([account(31337, 'not_deployed', 'local-1')])
    service.userOp.submit.mockRejectedValueOnce(new Error('The signature is not the owner’s signature of this hash'))
    await renderWidget(<SmartAccounts />, { service })
    await settle()

    await act(async () => within(row('Local Chain 1')).getByRole('button', { name: 'Activate' }).click())
    await settle()
    expect(within(row('Local Chain 1')).getByRole('alert').textContent).toBe('The signature is not the owner’s signature of this hash')
    expect(status('Local Chain 1')).toBe('Not Activated')

    await act(async () => within(row('Local Chain 1')).getByRole('button', { name: 'Activate' }).click())
    await settle()
    expect(steps).toEqual(['create', 'hash acc-31337', 'hash acc-31337', 'submit', 'create'])
    expect(status('Local Chain 1')).toBe('Activating')
    expect(within(row('Local Chain 1')).getByRole('alert').textContent).toBe('')
  })
})

test('only the embedded wallet owns smart accounts: a WalletConnect session is not asked for any', async () => {
  const { service } = fakeService([account(31337, 'not_deployed', 'local-1')])
  await renderWidget(<SmartAccounts />, { service, session: 'walletconnect' })
  await settle()
  expect(service.create).not.toHaveBeenCalled()
  expect(screen.queryByRole('list')).toBeNull()
})
