import { expect, test } from '@playwright/test'
import { verifyMessage } from 'viem'
import { confirmSignature, frameOf, logInInFrame, openConnect } from './helpers.ts'
import { click } from './click.ts'

type WithProvider = HTMLElement & { provider: { request(r: unknown): Promise<unknown> } }

test('Vue 3: <wallet-kit> as a custom element, its DOM events in Vue state, signing through .provider', async ({ page, request }) => {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto('/vue/')
  await expect(page.getByTestId('status')).toHaveText('disconnected')
  // Vue rendered the page, and <wallet-kit> is the element itself (its shadow root, its .provider), not a Vue component.
  expect(
    await page.evaluate(() => {
      const element = document.querySelector('wallet-kit') as WithProvider
      return {
        vue: '__vue_app__' in document.querySelector('#app')!,
        defined: customElements.get('wallet-kit') === element.constructor,
        shadow: !!element.shadowRoot,
        provider: typeof element.provider.request,
      }
    }),
  ).toEqual({ vue: true, defined: true, shadow: true, provider: 'function' })
  await expect(page.getByTestId('wallet-kit-frame')).toHaveCount(1)

  const element = page.locator('wallet-kit')
  await openConnect(page, element.getByRole('button', { name: 'Connect' }))
  await logInInFrame(page, request)

  // The connect and accountschanged events filled in Vue's state.
  await expect(page.getByTestId('status')).toHaveText('connected')
  const address = (await page.getByTestId('address').textContent()) as `0x${string}`
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  expect(await page.evaluate(() => (document.querySelector('wallet-kit') as WithProvider).provider.request({ method: 'eth_accounts' }))).toEqual([address])
  await expect(page.getByTestId('chain')).toHaveText('31337')
  await expect(page.getByTestId('events')).toContainText('connect {"chainId":"0x7a69"}')
  await expect(page.getByTestId('events')).toContainText(`accountschanged ["${address}"]`)
  await expect(element.getByRole('button', { name: `${address.slice(0, 6)}…${address.slice(-4)}` })).toBeVisible()

  // Signing goes through the element's .provider: the confirmation modal, then the signature on the page.
  await click(page.getByRole('button', { name: 'Sign message' }))
  await confirmSignature(page)
  await expect(page.getByTestId('signature')).toHaveText(/^0x[0-9a-f]{130}$/)
  const signature = (await page.getByTestId('signature').textContent()) as `0x${string}`
  expect(await verifyMessage({ address, message: 'Hello from wallet-kit', signature })).toBe(true)
  await expect(page.getByTestId('error')).toBeEmpty()
  await page.screenshot({ path: 'test-results/screens/vue-page-desktop.png' })

  // A rejected signature is an EIP-1193 error on the page, and the last signature is gone.
  await click(page.getByRole('button', { name: 'Sign message' }))
  await click(frameOf(page).getByRole('button', { name: 'Reject' }))
  await expect(page.getByTestId('error')).toContainText('(code 4001)')
  await expect(page.getByTestId('signature')).toHaveText('—')

  // A chain switch through .provider comes back as a chainchanged event.
  await click(page.getByRole('button', { name: 'Switch chain' }))
  await expect(page.getByTestId('chain')).toHaveText('31338')
  await expect(page.getByTestId('events')).toContainText('chainchanged "0x7a6a"')
  await expect(page.getByTestId('error')).toBeEmpty()

  // After a reload no event tells of the stored session: the page asks for it.
  await page.reload()
  await expect(page.getByTestId('address')).toHaveText(address)
  const chainId = await page.evaluate(() => (document.querySelector('wallet-kit') as WithProvider).provider.request({ method: 'eth_chainId' }))
  await expect(page.getByTestId('chain')).toHaveText(String(Number(chainId)))
  await expect(page.getByTestId('events')).toBeEmpty()

  // Disconnect in the element's profile modal: its disconnect events empty Vue's state.
  await click(element.getByRole('button', { name: `${address.slice(0, 6)}…${address.slice(-4)}` }))
  await expect(frameOf(page).getByRole('dialog', { name: 'Personal Wallet' })).toBeVisible()
  await click(frameOf(page).getByRole('button', { name: 'Disconnect Wallet' }))
  await expect(page.getByTestId('status')).toHaveText('disconnected')
  await expect(page.getByTestId('address')).toHaveText('—')
  await expect(page.getByTestId('chain')).toHaveText('—')
  await expect(page.getByTestId('events')).toContainText('accountschanged []')
  await expect(page.getByTestId('events')).toContainText('disconnect 4900 Disconnected')
  await expect(page.getByRole('button', { name: 'Sign message' })).toBeHidden()
  await expect(element.getByRole('button', { name: 'Connect' })).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/vue-page-disconnected.png' })
  expect(errors).toEqual([])
})
