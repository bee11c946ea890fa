// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { ProfileModal } from './ProfileModal.tsx'
import { renderProfileWidget } from './profile.fixture.tsx'

// The profile's Buy button is inert until a fiat and a crypto are chosen: while the ramp's lists
// load, and when they leave no fiat, or no crypto for the chosen fiat.

type Lists = { currencies: () => Promise<unknown[]>; cryptos: () => Promise<unknown[]> }
const ramp = vi.hoisted(() => ({ lists: null as null | Lists, asked: 0 }))
vi.mock('../../sdk/ramp/client.ts', () => ({
  createRampClient: () => ({
    reference: {
      currencies: () => {
        ramp.asked++
        return ramp.lists!.currencies()
      },
      cryptos: () => {
        ramp.asked++
        return ramp.lists!.cryptos()
      },
    },
    onramp: { quote: () => new Promise(() => {}) },
  }),
}))

afterEach(cleanup)

const idr = { id: 'IDR', currency: 'IDR', symbol: 'Rp', logo: 'data:,' }
const usdc = (currencies: string[]) => ({ id: 'usdc', symbol: 'USDC', name: 'USD Coin', label: 'USDC', logo: 'data:,', currencies })
const never = () => new Promise<never>(() => {})

async function profile(lists: Lists) {
  ramp.lists = lists
  ramp.asked = 0
  const t = await renderProfileWidget(<ProfileModal />, { client: { context: {} }, config: { rampableClientSecret: 'ramp-secret' }, balance: '0x0' })
  // Both lists are asked for and their answers (if any) arrive and render.
  await waitFor(() => expect(ramp.asked).toBe(2))
  await act(async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0))
  })
  return t
}

const buy = () => screen.getByRole('button', { name: 'Buy' }) as HTMLButtonElement

test.each([
  ['while the lists load', { currencies: never, cryptos: never }],
  ['with no fiat', { currencies: async () => [], cryptos: async () => [usdc(['IDR'])] }],
  ['with no crypto at all', { currencies: async () => [idr], cryptos: async () => [] }],
  ['with no crypto for the fiat', { currencies: async () => [idr], cryptos: async () => [usdc(['USD'])] }],
  ['when the lists fail', { currencies: async () => Promise.reject(new Error('down')), cryptos: async () => Promise.reject(new Error('down')) }],
])('Buy is inert %s: disabled, and a click stays home', async (_, lists) => {
  const { wallet } = await profile(lists)
  expect(buy().disabled).toBe(true)
  fireEvent.click(buy())
  expect(wallet.ui.get().page).toBe('home')
})

test('once a fiat and a crypto for it are chosen (IDR, USDC), Buy opens the Buy page', async () => {
  const { wallet } = await profile({ currencies: async () => [idr], cryptos: async () => [usdc(['IDR'])] })
  expect(buy().disabled).toBe(false)
  fireEvent.click(buy())
  expect(wallet.ui.get().page).toBe('onramp')
  expect(await screen.findByRole('heading', { name: 'Buy' })).toBeTruthy()
})
