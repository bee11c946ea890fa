import { expect, test, type Page } from '@playwright/test'
import { signUp, startRequest } from './flows.ts'
import { frameOf, providerUrl } from './helpers.ts'
import { click } from './click.ts'

/** Records every bridge call the host page sends (Penpal CALL messages on the MessagePort). */
async function recordBridgeCalls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const sent: string[] = []
    Object.assign(window, { bridgeCalls: sent })
    const post = MessagePort.prototype.postMessage
    MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, ...rest: never[]) {
      const m = message as { type?: string; methodPath?: string[]; args?: { method?: string }[] }
      if (m?.type === 'CALL') sent.push(m.methodPath?.[0] === 'request' ? `request:${m.args?.[0]?.method}` : String(m.methodPath))
      return post.call(this, message, ...rest)
    } as typeof post
  })
}
const bridgeCalls = (page: Page) => page.evaluate(() => (window as unknown as { bridgeCalls: string[] }).bridgeCalls.slice())

test('unsupported methods are 4200 and malformed requests -32602, answered in the page before anything is sent; bad params are -32602 and chains the app lacks 4902 from the frame', async ({
  page,
}) => {
  await recordBridgeCalls(page)
  await page.goto('/demo/')
  await expect(page.getByTestId('chain')).toHaveText('31337')
  const before = await bridgeCalls(page)
  expect(before).toContain('hello')

  const address = '0x000000000000000000000000000000000000dEaD'
  expect(await startRequest(page, 'eth_sign', [address, '0x00'])).toMatchObject({ code: 4200 })
  expect(await startRequest(page, 'acme_doThings')).toMatchObject({ code: 4200, message: 'Unsupported method: acme_doThings' })
  expect(await page.evaluate(() => window.WalletKit!.kit!.provider.request(null as never).catch((e: { code: number }) => e.code))).toBe(-32602)
  expect(await bridgeCalls(page)).toEqual(before)

  // The demo page names no chains of its own: the frame judges a switch by the app's settings.
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x1' }])).toMatchObject({
    code: 4902,
    message: 'Chain 1 is not configured for this app',
  })

  // Per-method params are checked by the frame with the same registry (bridge/rpc-methods.ts).
  expect(await startRequest(page, 'personal_sign', ['0x6869'])).toMatchObject({
    code: -32602,
    message: 'Invalid params for personal_sign: expected 2 to 3 params, got 1',
  })
  expect(await startRequest(page, 'personal_sign', ['0x6869', 'bob'])).toMatchObject({
    code: -32602,
    message: 'Invalid params for personal_sign: params[1] must be an address',
  })
  expect(await startRequest(page, 'eth_sendTransaction', [{ from: address, value: 12 }])).toMatchObject({
    code: -32602,
    message: 'Invalid params for eth_sendTransaction: params[0] .value must be a hex quantity',
  })
  expect(await startRequest(page, 'eth_signTypedData_v4', [address, '{broken'])).toMatchObject({ code: -32602 })
  expect(await startRequest(page, 'eth_chainId', { a: 1 })).toMatchObject({ code: -32602 })
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
})

test('a host page cannot spend a signed-in wallet through non-wallet methods: eth_sendUnsignedTransaction and node admin methods are 4200, reads work', async ({
  page,
  request,
}) => {
  await recordBridgeCalls(page)
  const victim = await signUp(page, request) // funded by the faucet at sign-up
  const balance = async () => (await startRequest(page, 'eth_getBalance', [victim, 'latest'])) as { result: string }
  const before = await balance()
  const attacks = [
    'eth_sendUnsignedTransaction',
    'eth_sendTransactionSync',
    'anvil_setBalance',
    'anvil_impersonateAccount',
    'evm_mine',
    'hardhat_setBalance',
    'debug_traceCall',
    'personal_unlockAccount',
    'txpool_content',
  ]
  for (const method of attacks)
    expect(await startRequest(page, method, [{ from: victim, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' }])).toMatchObject({
      code: 4200,
      message: `Unsupported method: ${method}`,
    })
  expect((await bridgeCalls(page)).filter((call) => attacks.some((method) => call === `request:${method}`))).toEqual([])
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  expect(await balance()).toEqual(before)
  expect(BigInt(before.result)).toBeGreaterThan(0n)
  expect(await startRequest(page, 'eth_blockNumber')).toEqual({ result: expect.stringMatching(/^0x[0-9a-f]+$/) })
  expect(await startRequest(page, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: '0x000000000000000000000000000000000000dEaD' }])).toEqual({
    result: [],
  })
})

test('signing before connecting is 4100; reads work without a session', async ({ page }) => {
  await page.goto('/demo/')
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
  expect(await startRequest(page, 'personal_sign', ['0x6869', '0x000000000000000000000000000000000000dEaD'])).toMatchObject({ code: 4100 })
  expect(await startRequest(page, 'eth_blockNumber')).toEqual({ result: expect.stringMatching(/^0x[0-9a-f]+$/) })
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
})

test('the frame reloading mid-request rejects it with 4900, and the next call works', async ({ page }) => {
  await page.goto('/demo/')
  await expect(page.getByTestId('chain')).toHaveText('31337')
  const pending = startRequest(page, 'eth_requestAccounts') // waits with the connect modal open
  await expect(frameOf(page).getByRole('heading', { name: 'Login or Sign Up' })).toBeVisible()
  const widget = page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
  await widget.evaluate(() => location.reload())
  expect(await pending).toMatchObject({ code: 4900, message: expect.stringContaining('reloaded') })
  expect(await startRequest(page, 'eth_chainId')).toEqual({ result: '0x7a69' })
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
})

test('a frame that comes back on another chain after a reload is reported: chainChanged, and the page shows what eth_chainId answers', async ({ page }) => {
  await page.goto('/demo/')
  await expect(page.getByTestId('chain')).toHaveText('31337')
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x7a6a' }])).toEqual({ result: null })
  await expect(page.getByTestId('chain')).toHaveText('31338')
  const widget = page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
  const reloaded = page.waitForEvent('framenavigated', (frame) => frame.url().startsWith(`${providerUrl}/widget/`))
  await widget.evaluate(() => location.reload()) // nobody signed in: the frame starts on the first chain
  await reloaded
  await widget.waitForLoadState()
  await expect.poll(() => startRequest(page, 'eth_chainId')).toEqual({ result: '0x7a69' })
  await expect(page.getByTestId('chain')).toHaveText('31337')
})

test('calls made before the handshake are queued, not lost; a second kit is refused', async ({ page }) => {
  await page.goto('/demo/')
  const outcome = await page.evaluate(async () => {
    window.WalletKit!.kit!.destroy()
    const kit = window.WalletKit!.createWalletKit({ appId: 'demo' })
    const answers = Promise.all([kit.provider.request({ method: 'eth_chainId' }), kit.provider.request({ method: 'net_version' })])
    let refused = ''
    try {
      window.WalletKit!.createWalletKit({ appId: 'demo' })
    } catch (err) {
      refused = (err as Error).message
    }
    return { answers: await answers, refused, same: window.WalletKit!.kit === kit }
  })
  expect(outcome).toEqual({
    answers: ['0x7a69', '31337'],
    refused: 'A wallet kit already exists on this page: reuse it (WalletKit.kit) or destroy() it first',
    same: true,
  })
})

test('the overlay: full viewport and transparent, focus moves in, scroll locked; all given back on close', async ({ page }) => {
  await page.goto('/demo/')
  const connect = page.getByRole('button', { name: 'Connect' })
  await connect.focus()
  await click(connect)
  const iframe = page.getByTestId('wallet-kit-frame')
  await expect(frameOf(page).getByRole('heading', { name: 'Login or Sign Up' })).toBeVisible()
  expect(await iframe.boundingBox()).toEqual({ x: 0, y: 0, ...page.viewportSize()! })
  expect(await iframe.getAttribute('allow')).toBe('clipboard-write;publickey-credentials-get;publickey-credentials-create')
  expect(
    await page.evaluate(() => ({
      focused: document.activeElement?.getAttribute('data-testid'),
      overflow: getComputedStyle(document.documentElement).overflow,
      background: getComputedStyle(document.querySelector('[data-testid=wallet-kit-frame]')!).backgroundColor,
    })),
  ).toEqual({ focused: 'wallet-kit-frame', overflow: 'hidden', background: 'rgba(0, 0, 0, 0)' })

  await frameOf(page).getByPlaceholder('Enter your email').press('Escape')
  await expect(iframe).toBeHidden()
  await expect(connect).toBeFocused()
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('visible')
})

test('EIP-6963: the provider is announced with uuid, name, icon and rdns, and again on request', async ({ page }) => {
  await page.goto('/demo/')
  const announced = await page.evaluate(() => {
    const seen: { info: Record<string, string>; same: boolean; frozen: boolean }[] = []
    window.addEventListener('eip6963:announceProvider', (e) => {
      const { info, provider } = (e as CustomEvent).detail
      seen.push({ info, same: provider === window.WalletKit!.kit!.provider, frozen: Object.isFrozen((e as CustomEvent).detail) })
    })
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    return seen
  })
  expect(announced).toHaveLength(1)
  const [{ info, same, frozen }] = announced as [(typeof announced)[number]]
  expect({ same, frozen }).toEqual({ same: true, frozen: true })
  expect(info).toEqual({
    uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    name: 'Wallet Kit',
    icon: expect.stringMatching(/^data:image\/svg\+xml,<svg /),
    rdns: 'dev.walletkit',
  })
})

test('a page whose CSP blocks the frame gets an error naming the frame-src directive it needs', async ({ page }) => {
  await page.goto('/csp/')
  await expect(page.getByTestId('error')).toHaveText(
    `Wallet frame did not connect within 2000 ms. This page's Content-Security-Policy blocked the wallet frame (frame-src): add "frame-src ${providerUrl}" to it. (code 4900)`,
  )
})
