// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { Suspense } from 'react'
import { afterEach, expect, test, vi } from 'vitest'
import { lazyRoute, RouteError } from './lazy-route.ts'

afterEach(cleanup)

const ThePage = () => <p>the page</p>

test('a page whose code could not load (offline) shows the fallback, not a blank widget; the next try loads it', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  let online = false
  const load = vi.fn(async () => {
    if (!online) throw new TypeError('Failed to fetch dynamically imported module')
    return { Page: ThePage }
  })
  const Page = lazyRoute(load, (m) => m.Page)
  const view = (key: string) => (
    <RouteError resetKey={key} fallback={<p role="alert">Something went wrong</p>}>
      <Suspense fallback={null}>
        <Page />
      </Suspense>
    </RouteError>
  )
  const { rerender } = render(view('first'))
  expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Something went wrong')
  online = true
  await act(async () => rerender(view('again')))
  expect(await screen.findByText('the page')).toBeTruthy()
  // Retried when asked again, not in a loop.
  expect(load.mock.calls.length).toBeLessThan(10)
})
