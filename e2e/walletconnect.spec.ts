import { expect, test } from '@playwright/test'
import { createPublicClient, http, verifyMessage, verifyTypedData } from 'viem'
import { startRequest } from './flows.ts'
import { accounts, typedData, demoOrigin, frameOf, openConnect, providerUrl, snap } from './helpers.ts'
import { decide, openPairing, openWallet, scanQr, walletAddress } from './walletconnect.ts'
import { click } from './click.ts'

const chain = createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) })

test('WalletConnect end to end: the QR pairs the sandbox wallet; signing and sending are confirmed on it; a reload keeps the session; the wallet ending it tells the host', async ({
  page,
}) => {
  // Every request the browser makes, from every page of this test: none may leave the machine.
  const hosts = new Set<string>()
  page.context().on('request', (r) => hosts.add(new URL(r.url()).host))

  await openPairing(page)
  const uri = await scanQr(page)
  await snap(page, 'connect-qr-code')
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)

  const wallet = await openWallet(page, uri)
  const address = await walletAddress(wallet)
  await decide(wallet, 'proposal', 'Approve')
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  await expect(page.getByTestId('account')).toHaveText(address)
  expect(await accounts(page)).toEqual([address])

  // personal_sign: the frame says to confirm in the wallet; the wallet signs; the signature verifies.
  const signing = startRequest(page, 'personal_sign', ['0x68656c6c6f2066726f6d2061207068f36e65', address])
  await expect(frameOf(page).getByTestId('confirm-in-wallet')).toHaveText('Confirm in your wallet')
  await expect(frameOf(page).getByRole('button', { name: 'Confirm' })).toHaveCount(0)
  await snap(page, 'confirmation-in-wallet')
  await decide(wallet, 'request', 'Approve')
  const signed = await signing
  expect(await verifyMessage({ address, message: { raw: '0x68656c6c6f2066726f6d2061207068f36e65' }, signature: signed.result as `0x${string}` })).toBe(true)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

  // eth_sendTransaction: sent by the wallet, mined on the local chain.
  const to = '0x000000000000000000000000000000000000bEEF'
  const sending = startRequest(page, 'eth_sendTransaction', [{ from: address, to, value: '0x1' }])
  await decide(wallet, 'request', 'Approve')
  const sent = await sending
  expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/)
  const receipt = await chain.waitForTransactionReceipt({ hash: sent.result as `0x${string}` })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())

  // Typed data (EIP-712), on the second chain after a switch: the wallet signs it for that chain.
  const switched = page.evaluate(
    () => new Promise<string>((resolve) => window.WalletKit!.kit!.provider.on('chainChanged', ((id: string) => resolve(id)) as never)),
  )
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x7a6a' }])).toEqual({ result: null })
  expect(await switched).toBe('0x7a6a')
  const greeting = typedData(address, 'gm from a phone', 31338)
  const typedSigning = startRequest(page, 'eth_signTypedData_v4', [address, JSON.stringify(greeting)])
  await decide(wallet, 'request', 'Approve')
  const typedSigned = await typedSigning
  expect(await verifyTypedData({ address, ...greeting, signature: typedSigned.result as `0x${string}` } as never)).toBe(true)
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x7a69' }])).toEqual({ result: null })

  // A request the wallet rejects is 4001 at the host.
  const refused = startRequest(page, 'personal_sign', ['0x6869', address])
  await decide(wallet, 'request', 'Reject')
  expect(await refused).toEqual({ code: 4001, message: 'Message signing rejected by user' })

  // Reload: the session is restored from the frame's storage.
  await page.reload()
  await expect.poll(() => accounts(page), { timeout: 15_000 }).toEqual([address])

  // The wallet disconnects: the host hears accountsChanged([]) and disconnect.
  const heard = page.evaluate(
    () =>
      new Promise<unknown[]>((resolve) => {
        const seen: unknown[] = []
        const provider = window.WalletKit!.kit!.provider
        provider.on('accountsChanged', ((a: string[]) => seen.push(a)) as never)
        provider.on('disconnect', ((e: { code: number }) => resolve([...seen, e.code])) as never)
      }),
  )
  await click(wallet.getByTestId('session').getByRole('button', { name: 'Disconnect' }))
  expect(await heard).toEqual([[], 4900])
  expect(await accounts(page)).toEqual([])

  expect([...hosts].sort()).toEqual([new URL(demoOrigin).host, new URL(providerUrl).host])
})

test('a rejected pairing is said, and a new QR replaces it; Open in Browser pairs the same way', async ({ page }) => {
  await openPairing(page)
  const first = await scanQr(page)
  const wallet = await openWallet(page, first)
  await decide(wallet, 'proposal', 'Reject')
  const frame = frameOf(page)
  await expect(frame.getByTestId('pairing-error')).toHaveText('Connection rejected in the wallet')
  await expect.poll(() => scanQr(page)).not.toBe(first)
  await wallet.close()

  // 'Open in Browser' opens the wallet on its universal link with the new URI.
  const opened = page.context().waitForEvent('page')
  await click(frame.getByTestId('open-in-browser'))
  const tab = await opened
  await expect(tab.locator('body[data-ready=true]')).toBeAttached({ timeout: 30_000 })
  const address = await walletAddress(tab)
  await decide(tab, 'proposal', 'Approve')
  await expect.poll(() => accounts(page)).toEqual([address])
})

test('the wallet list offers mobile wallets with no browser wallet installed, WalletConnect last', async ({ page }) => {
  await page.goto('/demo/')
  await openConnect(page)
  const frame = frameOf(page)
  await click(frame.getByRole('button', { name: 'More Options' }))
  const list = frame.getByRole('list', { name: 'Mobile wallets' })
  await expect(list.getByRole('button', { name: 'WalletConnect' })).toBeVisible()
  const names = await list.getByRole('button').allTextContents()
  expect(names[0]).toBe('Coinbase Wallet')
  expect(names.at(-1)).toBe('WalletConnect')
  expect(names).toContain('Sandbox Wallet')
  await snap(page, 'connect-wallet-list-no-browser-wallet')
})

test("on a phone, a mobile wallet's QR page offers its app link, opened by the frame itself toward the top page", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await openPairing(page, 'MetaMask')
  const uri = await scanQr(page)
  const open = frameOf(page).getByRole('link', { name: 'Open MetaMask' })
  await expect(open).toHaveAttribute('target', '_top')
  const link = new URL((await open.getAttribute('href'))!)
  expect(link.protocol).toBe('metamask:')
  expect(link.searchParams.get('uri')).toBe(uri)
  await expect(frameOf(page).getByTestId('open-in-browser')).toHaveCount(0)
  await page.screenshot({ path: 'test-results/screens/connect-qr-code-mobile-wallet-phone.png' })
})

test('ethers v6 on the kit, unmodified: connect by pasting the copied link into the wallet, as a person does; sign a message on the phone, verify it with its own code', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await openPairing(page, 'Sandbox Wallet', '/ethers/')
  const uri = await scanQr(page)
  await click(frameOf(page).getByRole('button', { name: 'Copy link' }))
  await expect(frameOf(page).getByRole('status').filter({ hasText: 'Copied to clipboard' })).toBeVisible()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toBe(uri)
  const wallet = await context.newPage()
  await wallet.goto(`${providerUrl}/dev/wallet`)
  await expect(wallet.locator('body[data-ready=true]')).toBeAttached({ timeout: 30_000 })
  await wallet.getByLabel('Pairing URI').fill(copied)
  await click(wallet.getByRole('button', { name: 'Pair' }))
  const address = await walletAddress(wallet)
  await decide(wallet, 'proposal', 'Approve')
  await expect(page.getByTestId('address')).toHaveText(address)
  await expect(page.getByTestId('chain')).toHaveText('31337')
  await click(page.getByRole('button', { name: 'Sign message' }))
  await decide(wallet, 'request', 'Approve')
  await expect(page.getByTestId('verified')).toHaveText('true')
  await expect(page.getByTestId('signature')).toHaveText(/^0x[0-9a-f]{130}$/)
  await expect(page.getByTestId('error')).toBeEmpty()
})
