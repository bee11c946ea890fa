import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { logInInFrame } from './helpers.ts'

/** Signs a new user up through the demo page's Connect button; returns the new address. */
export async function signUp(page: Page, request: APIRequestContext): Promise<`0x${string}`> {
  await page.goto('/demo/')
  await page.getByRole('button', { name: 'Connect' }).click()
  await logInInFrame(page, request)
  await expect(page.getByTestId('account')).toHaveText(/^0x[0-9a-fA-F]{40}$/)
  return (await page.getByTestId('account').textContent()) as `0x${string}`
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
