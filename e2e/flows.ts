import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { latestCode, openConnect, signUpInFrame } from './helpers.ts'
import { click } from './click.ts'

/** Signs a new user up through the demo page's Connect button; returns the new address. */
export async function signUp(page: Page, request: APIRequestContext): Promise<`0x${string}`> {
  return (await signUpWithEmail(page, request)).address
}

/** Signs a new user up through the demo page's Connect button; returns the new address and the user's e-mail address. */
export async function signUpWithEmail(page: Page, request: APIRequestContext): Promise<{ address: `0x${string}`; email: string }> {
  await page.goto('/demo/')
  await openConnect(page)
  const email = await signUpInFrame(page, request)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  await expect(page.getByTestId('account')).toHaveText(/^0x[0-9a-fA-F]{40}$/)
  return { address: (await page.getByTestId('account').textContent()) as `0x${string}`, email }
}

/**
 * On the permission-accept page `accept` (opened from the need-permission modal): Grant permission,
 * then the confirmation code the dev inbox got for `email`, as its user types it.
 */
export async function grantOnAcceptPage(accept: Page, request: APIRequestContext, email: string): Promise<void> {
  await click(accept.getByRole('button', { name: 'Grant permission' }))
  await expect(accept.getByText('We sent a code to')).toBeVisible()
  await accept.getByLabel('Confirmation code').fill(await latestCode(request, email))
  await click(accept.getByRole('button', { name: 'Confirm' }))
  await expect(accept.getByRole('heading', { name: 'Permission granted' })).toBeVisible()
}

/** Starts a provider request in the page without waiting; the answer (or error code and message) comes later. */
export function startRequest(page: Page, method: string, params?: unknown) {
  return page.evaluate(
    ({ method, params }) =>
      window.WalletKit!.kit!.provider.request(params === undefined ? { method } : { method, params: params as never }).then(
        (result) => ({ result }) as { result: unknown; code?: never; message?: never },
        (e: { code: number; message: string }) => ({ code: e.code, message: e.message }) as { result?: never; code: number; message: string },
      ),
    { method, params },
  )
}
