import { expect, test } from '@playwright/test'
import { confirmSignature, logInInFrame, openConnect } from './helpers.ts'
import { click } from './click.ts'

/**
 * The dapp libraries, unmodified, on a host origin (127.0.0.1) other than the provider's
 * (localhost): each connects through the modal, reads the chain id, signs a message in the
 * confirmation modal and verifies the signature against the address with its own code.
 */
for (const library of ['ethers', 'viem', 'wagmi', 'web3'] as const) {
  test(`${library}: connect, chain id, sign a message and verify it`, async ({ page, request }) => {
    await page.goto(`/${library}/`)
    if (library === 'wagmi') await expect(page.getByTestId('connectors')).toContainText('Wallet Kit')

    await openConnect(page)
    await logInInFrame(page, request)
    await expect(page.getByTestId('address')).toHaveText(/^0x[0-9a-fA-F]{40}$/)
    await expect(page.getByTestId('chain')).toHaveText('31337')
    await expect(page.getByTestId('error')).toBeEmpty()

    await click(page.getByRole('button', { name: 'Sign message' }))
    await confirmSignature(page)
    await expect(page.getByTestId('verified')).toHaveText('true')
    await expect(page.getByTestId('signature')).toHaveText(/^0x[0-9a-f]{130}$/)
    await expect(page.getByTestId('error')).toBeEmpty()
  })
}
