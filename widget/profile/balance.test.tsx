// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react'
import { parseEther, toHex } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { ProfileModal } from './ProfileModal.tsx'
import { renderProfileWidget } from './profile.fixture.tsx'

// The profile home's chain row shows the balance compact where it is 1000 or more (k, m, b, t),
// as the shared formatter writes it (bridge/format.ts); smaller amounts keep their 2 decimals.

afterEach(cleanup)

async function profileWith(ether: string) {
  await renderProfileWidget(<ProfileModal />, { config: { showPoweredBy: false }, balance: toHex(parseEther(ether)) })
  await waitFor(() => expect(screen.getByTestId('profile-balance').textContent).not.toContain('…'))
  return screen.getByTestId('profile-balance').textContent
}

test.each([
  ['0.5', '0.5 ETH'],
  ['999.999', '999.99 ETH'],
  ['1234.5678', '1.23k ETH'],
  ['3200000', '3.2m ETH'],
  ['45000000000', '45b ETH'],
  ['7100000000000', '7.1t ETH'],
])('a balance of %s ETH shows as %j', async (ether, shown) => {
  expect(await profileWith(ether)).toBe(shown)
})
