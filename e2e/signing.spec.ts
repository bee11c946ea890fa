import { expect, test } from '@playwright/test'
import { createPublicClient, hashTypedData, http, parseEther, recoverAddress, verifyMessage, verifyTypedData } from 'viem'
import { grantOnAcceptPage, signUp, signUpWithEmail, startRequest } from './flows.ts'
import { confirmRequest, frameOf, inboxSize, latestCode, providerUrl, snap, typedData } from './helpers.ts'
import { addPasskeyInProfile, credentialsOf, virtualAuthenticator } from './passkeys.ts'
import { click } from './click.ts'

const chain = createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) })

test('personal_sign: the user sees the message, confirms, and the signature verifies against the address', async ({ page, request }) => {
  const address = await signUp(page, request)
  const pending = startRequest(page, 'personal_sign', ['0x68656c6c6f20776f726c64', address])
  const frame = frameOf(page)
  await expect(frame.getByRole('heading', { name: 'Sign Message' })).toBeVisible()
  await expect(frame.getByTestId('confirm-message')).toHaveText('hello world')
  await snap(page, 'confirmation-sign-message')
  await confirmRequest(page)
  const { result } = await pending
  expect(await verifyMessage({ address, message: 'hello world', signature: result as `0x${string}` })).toBe(true)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

  // Bytes that are not text are signed as raw bytes (EIP-191), like other wallets do.
  const raw = '0x00ff10'
  const rawPending = startRequest(page, 'personal_sign', [raw, address])
  await confirmRequest(page)
  const rawSigned = await rawPending
  expect(await verifyMessage({ address, message: { raw }, signature: rawSigned.result as `0x${string}` })).toBe(true)

  // Text that itself looks like hex is still signed as that text.
  const hexLooking = '0xdeadbeef'
  const textPending = startRequest(page, 'personal_sign', [`0x${Buffer.from(hexLooking).toString('hex')}`, address])
  await confirmRequest(page)
  const textSigned = await textPending
  expect(await verifyMessage({ address, message: hexLooking, signature: textSigned.result as `0x${string}` })).toBe(true)
})

test('reject answers 4001 with the spec message; a request naming another account is 4100; bad params -32602', async ({ page, request }) => {
  const address = await signUp(page, request)
  const pending = startRequest(page, 'personal_sign', ['0x6869', address])
  const frame = frameOf(page)
  await click(frame.getByRole('button', { name: 'Reject' }))
  expect(await pending).toEqual({ code: 4001, message: 'Message signing rejected by user' })

  const other = '0x000000000000000000000000000000000000dEaD'
  expect(await startRequest(page, 'personal_sign', ['0x6869', other])).toMatchObject({ code: 4100 })
  expect(await startRequest(page, 'personal_sign', ['not hex', 'not an address'])).toMatchObject({ code: -32602 })
  expect(await startRequest(page, 'eth_signTypedData_v4', [address, '{broken'])).toMatchObject({ code: -32602 })
  expect(await startRequest(page, 'eth_sendTransaction', [{ from: address }])).toMatchObject({ code: -32602 })
  expect(await startRequest(page, 'eth_nope')).toMatchObject({ code: 4200 })
  expect(await startRequest(page, 'acme_doThings')).toMatchObject({ code: 4200 })
  // Nothing above left a modal open or the session changed.
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [address] })
})

test('eth_signTypedData_v4 signs EIP-712 data that verifies', async ({ page, request }) => {
  const address = await signUp(page, request)
  const data = typedData(address)
  const pending = startRequest(page, 'eth_signTypedData_v4', [address, JSON.stringify(data)])
  const frame = frameOf(page)
  await expect(frame.getByRole('heading', { name: 'Sign Message' })).toBeVisible()
  await expect(frame.getByTestId('confirm-message')).toContainText('"primaryType": "Greeting"')
  await confirmRequest(page)
  const { result } = await pending
  const { EIP712Domain: _, ...types } = data.types
  const message = { domain: data.domain, types, primaryType: 'Greeting' as const, message: data.message }
  expect(await verifyTypedData({ address, signature: result as `0x${string}`, ...message } as never)).toBe(true)
  expect(await recoverAddress({ hash: hashTypedData(message as never), signature: result as `0x${string}` })).toBe(address)
})

test('eth_sendTransaction: confirmed, mined on the local chain, value moved', async ({ page, request }) => {
  const address = await signUp(page, request)
  const to = '0x000000000000000000000000000000000000bEEF'
  const before = await chain.getBalance({ address: to })
  const pending = startRequest(page, 'eth_sendTransaction', [{ from: address, to, value: `0x${parseEther('0.25').toString(16)}` }])
  const frame = frameOf(page)
  await expect(frame.getByRole('heading', { name: 'Confirm Transaction' })).toBeVisible()
  await expect(frame.getByText('0.25 ETH')).toBeVisible()
  // Value leaves the wallet: confirmed only in the secure window, never in the frame (clickjacking defence).
  await expect(frame.getByRole('button', { name: 'Open secure window' })).toBeEnabled()
  await expect(frame.getByRole('button', { name: 'Confirm' })).toHaveCount(0)
  await snap(page, 'confirmation-transaction')
  await confirmRequest(page)
  const { result } = await pending
  const receipt = await chain.waitForTransactionReceipt({ hash: result as `0x${string}` })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())
  expect((await chain.getBalance({ address: to })) - before).toBe(parseEther('0.25'))
})

test('reads go to the chain; switching to an unconfigured chain is 4902 and changes nothing', async ({ page, request }) => {
  const address = await signUp(page, request)
  const balance = await startRequest(page, 'eth_getBalance', [address, 'latest'])
  expect(BigInt(balance.result as string)).toBe(await chain.getBalance({ address }))
  expect(await startRequest(page, 'eth_blockNumber')).toMatchObject({ result: expect.stringMatching(/^0x/) })
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x1' }])).toMatchObject({ code: 4902 })
  expect(await startRequest(page, 'eth_chainId')).toEqual({ result: '0x7a69' })
  expect(await startRequest(page, 'wallet_getPermissions')).toMatchObject({ result: [{ parentCapability: 'eth_accounts' }] })
})

test('the profile modal shows the address and balance; Disconnect ends the session', async ({ page, request }) => {
  const address = await signUp(page, request)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await expect(frame.getByTestId('profile-address')).toHaveText(`${address.slice(0, 6)}…${address.slice(-4)}`)
  await expect(frame.getByTestId('profile-balance')).toHaveText(/^10\.00 ETH$/)
  await snap(page, 'profile-home')
  await click(frame.getByRole('button', { name: 'Receive' }))
  await expect(frame.getByRole('img', { name: `QR code of ${address}` })).toBeVisible()
  await snap(page, 'profile-receive')
  await click(frame.getByRole('button', { name: 'Back' }))
  await click(frame.getByRole('button', { name: 'Switch chain' }))
  await expect(frame.getByRole('listbox', { name: 'Chains' })).toBeVisible()
  await snap(page, 'profile-chain')
  await click(frame.getByRole('button', { name: 'Back' }))
  await click(frame.getByRole('button', { name: 'Disconnect Wallet' }))
  await expect(page.getByTestId('account')).toHaveText('—')
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
  await page.reload()
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
})

test('a wallet without permission gets the need-permission modal; Setup Permission opens the accept page; then signing works', async ({ page, request }) => {
  const { address, email } = await signUpWithEmail(page, request)
  const off = await request.post(`${providerUrl}/dev/api/wallets/${address}/permission`, { data: { granted: false } })
  expect(off.ok()).toBe(true)

  const refused = startRequest(page, 'personal_sign', ['0x6869', address])
  const frame = frameOf(page)
  await expect(frame.getByRole('button', { name: 'Confirm' })).toBeEnabled()
  await confirmRequest(page)
  expect(await refused).toMatchObject({ code: 4100 })
  await expect(frame.getByRole('heading', { name: 'Permission needed' })).toBeVisible()
  await snap(page, 'need-permission')

  const tab = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: 'Setup Permission' }))
  const accept = await tab
  await grantOnAcceptPage(accept, request, email)
  await accept.close()

  const signed = startRequest(page, 'personal_sign', ['0x6869', address])
  await confirmRequest(page)
  const { result } = await signed
  expect(await verifyMessage({ address, message: 'hi', signature: result as `0x${string}` })).toBe(true)
})

test('the accept page grants only with the e-mail code: a wrong code is refused and signing still needs the permission; the right one grants', async ({
  page,
  request,
}) => {
  const { address, email } = await signUpWithEmail(page, request)
  expect((await request.post(`${providerUrl}/dev/api/wallets/${address}/permission`, { data: { granted: false } })).ok()).toBe(true)
  const frame = frameOf(page)
  const refused = startRequest(page, 'personal_sign', ['0x6869', address])
  await confirmRequest(page)
  expect(await refused).toMatchObject({ code: 4100 })
  const tab = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: 'Setup Permission' }))
  const accept = await tab

  // Opening the page sends nothing; confirming sends the code.
  await expect(accept.getByRole('heading', { name: 'Permission needed' })).toBeVisible()
  const mails = await inboxSize(request, email)
  await click(accept.getByRole('button', { name: 'Grant permission' }))
  await expect(accept.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible()
  await expect(accept.getByText(/We sent a code to \w•••@example\.com/)).toBeVisible()
  expect(await inboxSize(request, email)).toBe(mails + 1)
  const code = await latestCode(request, email)

  await accept.getByLabel('Confirmation code').fill(code === '000000' ? '111111' : '000000')
  await click(accept.getByRole('button', { name: 'Confirm' }))
  await expect(accept.getByRole('alert')).toHaveText('That code is not right. Check it and try again.')
  await expect(accept.getByLabel('Confirmation code')).toBeVisible()
  // Not granted: a signing request still gets the need-permission modal.
  const stillRefused = startRequest(page, 'personal_sign', ['0x6869', address])
  await confirmRequest(page)
  expect(await stillRefused).toMatchObject({ code: 4100 })
  await expect(frame.getByRole('heading', { name: 'Permission needed' })).toBeVisible()

  await accept.getByLabel('Confirmation code').fill(code)
  await click(accept.getByRole('button', { name: 'Confirm' }))
  await expect(accept.getByRole('heading', { name: 'Permission granted' })).toBeVisible()
  await accept.close()
  // The frame learnt of the second refusal, not of the grant: its modal's new link says it is granted.
  const again = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: 'Setup Permission' }))
  const granted = await again
  await expect(granted.getByRole('heading', { name: 'Permission granted' })).toBeVisible()
  await granted.close()
  const signed = startRequest(page, 'personal_sign', ['0x6869', address])
  await confirmRequest(page)
  const { result } = await signed
  expect(await verifyMessage({ address, message: 'hi', signature: result as `0x${string}` })).toBe(true)
})

test("a user with a passkey grants on the accept page with it: the page's own script runs the assertion, no code is sent", async ({ page, request }) => {
  const { address, email } = await signUpWithEmail(page, request)
  const authenticator = await virtualAuthenticator(page)
  await addPasskeyInProfile(page, request, email)
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  const [credential] = await credentialsOf(authenticator)
  expect((await request.post(`${providerUrl}/dev/api/wallets/${address}/permission`, { data: { granted: false } })).ok()).toBe(true)
  const refused = startRequest(page, 'personal_sign', ['0x6869', address])
  await confirmRequest(page)
  expect(await refused).toMatchObject({ code: 4100 })
  const tab = page.waitForEvent('popup')
  await click(frameOf(page).getByRole('button', { name: 'Setup Permission' }))
  const accept = await tab
  // The same passkey on the tab's own authenticator (each page is its own DevTools target).
  const inTab = await virtualAuthenticator(accept)
  await inTab.cdp.send('WebAuthn.addCredential', { authenticatorId: inTab.authenticatorId, credential: credential! })
  const blocked: string[] = []
  accept.on('console', (m) => m.type() === 'error' && blocked.push(m.text()))

  const mails = await inboxSize(request, email)
  await click(accept.getByRole('button', { name: 'Grant permission' }))
  await expect(accept.getByText('Use your passkey to grant the permission.')).toBeVisible()
  await expect(accept.getByLabel('Confirmation code')).toHaveCount(0)
  await click(accept.getByRole('button', { name: 'Use passkey' }))
  await expect(accept.getByRole('heading', { name: 'Permission granted' })).toBeVisible()
  expect(blocked).toEqual([])
  expect(await inboxSize(request, email)).toBe(mails)
  await accept.close()

  const signed = startRequest(page, 'personal_sign', ['0x6869', address])
  await confirmRequest(page)
  const { result } = await signed
  expect(await verifyMessage({ address, message: 'hi', signature: result as `0x${string}` })).toBe(true)
})

test('switching to the second local chain is real: chainChanged, reads and sends go to 31338', async ({ page, request }) => {
  const address = await signUp(page, request)
  const events = page.evaluate(
    () => new Promise<string>((resolve) => window.WalletKit!.kit!.provider.on('chainChanged', ((id: string) => resolve(id)) as never)),
  )
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x7a6a' }])).toEqual({ result: null })
  expect(await events).toBe('0x7a6a')
  expect(await startRequest(page, 'eth_chainId')).toEqual({ result: '0x7a6a' })
  const second = createPublicClient({ transport: http(`${providerUrl}/rpc/31338`) })
  const balance = await startRequest(page, 'eth_getBalance', [address, 'latest'])
  expect(BigInt(balance.result as string)).toBe(await second.getBalance({ address }))

  const pending = startRequest(page, 'eth_sendTransaction', [{ from: address, to: address, value: '0x1' }])
  const frame = frameOf(page)
  await expect(frame.getByText('Local Chain 2')).toBeVisible()
  await confirmRequest(page)
  const { result } = await pending
  expect((await second.waitForTransactionReceipt({ hash: result as `0x${string}` })).status).toBe('success')

  // The chain is part of the session: a reload keeps it.
  await page.reload()
  expect(await startRequest(page, 'eth_chainId')).toEqual({ result: '0x7a6a' })
  await page.evaluate(() => window.WalletKit!.kit!.open('chain'))
  await expect(frameOf(page).getByRole('heading', { name: 'Switch Chain' })).toBeVisible()
  await snap(page, 'chain')
  await click(frameOf(page).getByRole('option', { name: /Local Chain 1/ }))
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  expect(await startRequest(page, 'eth_chainId')).toEqual({ result: '0x7a69' })
})
