import { expect, test } from 'vitest'
import { chainTable } from '../../../sdk/chain-table.ts'
import type { Deps } from '../../context.ts'
import { iconRoutes } from './icon-routes.ts'

const icons = iconRoutes({} as Deps)

test('every chain an app may list has its own icon, by its network name, which is how the chain list finds it', async () => {
  const fallback = await (await icons.request('/fallback.svg')).text()
  const seen = new Set<string>()
  for (const network of ['local-1', 'local-2', ...chainTable.map((e) => e.slug)]) {
    const response = await icons.request(`/chains/${network}.svg`)
    expect(response.status, network).toBe(200)
    expect(response.headers.get('x-icon-fallback'), network).toBeNull()
    const svg = await response.text()
    expect(svg, network).not.toBe(fallback)
    seen.add(svg)
  }
  // No two chains share a picture.
  expect(seen.size).toBe(chainTable.length + 2)
})

test.each(['atlantis', '__proto__', 'constructor', 'Sepolia%20', 'sepolia.png'])('%s gets the fallback image, marked', async (name) => {
  const response = await icons.request(`/chains/${name}.svg`)
  expect(response.status).toBe(200)
  expect(response.headers.get('x-icon-fallback')).toBe('1')
  expect(response.headers.get('content-type')).toBe('image/svg+xml')
})
