import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test'
import { base, sepolia } from 'viem/chains'
import { signUp, startRequest } from './flows.ts'
import { frameOf, logInInFrame, providerUrl, snap } from './helpers.ts'
import { click } from './click.ts'

/**
 * Public chains next to the local ones: the chain modal lists every chain the app offers, by name and
 * with its icon, a switch to one that cannot be reached changes nothing, and the profile links the
 * address to the active chain's explorer. `multichain` is the seed app that
 * lists Sepolia and Base after the sandbox's chains (sandbox/seed/apps.json, `"chains"`), with
 * viem's names, RPC URLs and explorers (sdk/chain-table.ts). Nothing leaves this machine: Sepolia's
 * RPC URLs refuse every connection, Base's answer here as a Base node would, and its explorer is a
 * stand-in page.
 */
const app = 'multichain'
const offered = [31337, 31338, sepolia.id, base.id]
const originsOf = (urls: readonly string[]) => new Set(urls.map((url) => new URL(url).origin))
const sepoliaRpc = originsOf(sepolia.rpcUrls.default.http)
const baseRpc = originsOf(base.rpcUrls.default.http)
const baseExplorer = base.blockExplorers.default

const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'content-type', 'Access-Control-Allow-Methods': 'POST, OPTIONS' }

/** A Base node for the reads the kit makes: its chain id, an empty balance. */
async function baseNode(route: Route) {
  if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors })
  const { id, method } = route.request().postDataJSON() as { id: number; method: string }
  const results: Record<string, string> = { eth_chainId: `0x${base.id.toString(16)}`, eth_getBalance: '0x0', eth_blockNumber: '0x1' }
  const body = method in results ? { jsonrpc: '2.0', id, result: results[method] } : { jsonrpc: '2.0', id, error: { code: -32601, message: 'not here' } }
  return route.fulfill({ status: 200, headers: { ...cors, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
}

/**
 * The demo page with its kit replaced by one for the multichain app offering all four chains (named
 * by the page, or, with `chains` undefined, taken from the app's settings); a new user signs up.
 */
async function signUpOnMultichain(page: Page, request: APIRequestContext, pageNamesChains = true): Promise<`0x${string}`> {
  const chains = pageNamesChains ? offered : undefined
  const context = page.context()
  await context.route(
    (url) => sepoliaRpc.has(url.origin),
    (route) => route.abort('connectionrefused'),
  )
  await context.route((url) => baseRpc.has(url.origin), baseNode)
  await context.route(`${baseExplorer.url}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Explorer stand-in</title><p>explorer</p>' }),
  )
  await page.goto('/demo/')
  await page.evaluate(
    ({ app, chains }) => {
      window.WalletKit!.kit!.destroy()
      return window.WalletKit!.createWalletKit({ appId: app, env: 'production', ...(chains && { chains }) }).open('connect')
    },
    { app, chains },
  )
  await logInInFrame(page, request)
  const [address] = (await page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_accounts' }))) as `0x${string}`[]
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  return address!
}

const chainId = (page: Page) => page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_chainId' }))

test("the chain modal lists the app's public chains by name, each with its icon, after the local ones", async ({ page, request }) => {
  await signUpOnMultichain(page, request)
  await page.evaluate(() => window.WalletKit!.kit!.open('chain'))
  const frame = frameOf(page)
  const list = frame.getByRole('listbox', { name: 'Chains' })
  await expect(list.getByRole('option')).toHaveText(['Local Chain 1', 'Local Chain 2', sepolia.name, base.name])
  // Each icon is the icon service's own picture for that network, loaded, not the fallback.
  for (const network of ['sepolia', 'base']) {
    const icon = frame.locator(`img[src="/icons/chains/${network}"]`)
    await expect(icon).toHaveJSProperty('complete', true)
    expect(await icon.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    const served = await request.get(`${providerUrl}/icons/chains/${network}`)
    expect(served.headers()['x-icon-fallback']).toBeUndefined()
  }
  await snap(page, 'chain-modal-public-chains')
})

test('a switch to a chain that cannot be reached fails: the highlight returns to the current chain, nothing changes', async ({ page, request }) => {
  await signUpOnMultichain(page, request)
  const changes: unknown[] = []
  await page.exposeFunction('chainChanged', (id: unknown) => changes.push(id))
  await page.evaluate(() =>
    window.WalletKit!.kit!.provider.on('chainChanged', (id) => (window as unknown as { chainChanged(id: unknown): void }).chainChanged(id)),
  )

  await page.evaluate(() => window.WalletKit!.kit!.open('chain'))
  const frame = frameOf(page)
  await click(frame.getByRole('option', { name: sepolia.name }))
  await expect(frame.getByRole('alert')).toHaveText(`${sepolia.name} cannot be reached right now. Try again later.`)
  await expect(frame.getByRole('option', { name: /Local Chain 1/ })).toHaveAttribute('aria-selected', 'true')
  await expect(frame.getByRole('option', { name: sepolia.name })).toHaveAttribute('aria-selected', 'false')
  await expect(frame.getByRole('heading', { name: 'Switch Chain' })).toBeVisible()
  await snap(page, 'chain-switch-unreachable')

  // The dapp asking gets EIP-1193's 4901; the chain stays.
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: `0x${sepolia.id.toString(16)}` }])).toMatchObject({
    code: 4901,
    message: expect.stringContaining(`${sepolia.name} (${sepolia.id}) cannot be reached`),
  })
  expect(await chainId(page)).toBe('0x7a69')
  expect(changes).toEqual([])
})

test("a reachable public chain: switched, and the profile's address links to its explorer, opened safely", async ({ page, request }) => {
  const address = await signUpOnMultichain(page, request)
  await page.evaluate(() => window.WalletKit!.kit!.open('chain'))
  const frame = frameOf(page)
  await click(frame.getByRole('option', { name: base.name }))
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  expect(await chainId(page)).toBe(`0x${base.id.toString(16)}`)

  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  await expect(frame.getByRole('button', { name: 'Switch Chain' })).toContainText(base.name)
  const link = frame.getByRole('link', { name: `View on ${baseExplorer.name}` })
  await expect(link).toHaveAttribute('href', `${baseExplorer.url}/address/${address}`)
  await expect(link).toHaveAttribute('target', '_blank')
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer')
  await snap(page, 'profile-explorer-link')

  const opened = page.context().waitForEvent('page')
  await click(link)
  const tab = await opened
  await tab.waitForLoadState()
  expect(tab.url()).toBe(`${baseExplorer.url}/address/${address}`)
  // The explorer's page gets no handle on the wallet frame and is not told where it came from.
  expect(await tab.evaluate(() => [window.opener, document.referrer])).toEqual([null, ''])
  await tab.close()

  // Back on a local chain: no explorer, no link.
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x7a69' }])).toEqual({ result: null })
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  await expect(frame.getByTestId('profile-address')).toBeVisible()
  await expect(frame.getByTestId('explorer-address')).toHaveCount(0)
})

test("a page that names no chains offers all the app's: a switch to Base works, one to a chain the app lacks is the frame's 4902", async ({
  page,
  request,
}) => {
  await signUpOnMultichain(page, request, false)
  await page.evaluate(() => window.WalletKit!.kit!.open('chain'))
  const frame = frameOf(page)
  await expect(frame.getByRole('listbox', { name: 'Chains' }).getByRole('option')).toHaveText(['Local Chain 1', 'Local Chain 2', sepolia.name, base.name])
  await page.evaluate(() => window.WalletKit!.kit!.close())
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: `0x${base.id.toString(16)}` }])).toEqual({ result: null })
  expect(await chainId(page)).toBe(`0x${base.id.toString(16)}`)
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x1' }])).toMatchObject({
    code: 4902,
    message: 'Chain 1 is not configured for this app',
  })
  expect(await chainId(page)).toBe(`0x${base.id.toString(16)}`)
})

test('a page naming only chains the app lacks gets a clear 4900 on every call, never a wallet on a chain nobody offered', async ({ page }) => {
  await page.goto('/demo/')
  const answers = await page.evaluate(async () => {
    window.WalletKit!.kit!.destroy()
    const kit = window.WalletKit!.createWalletKit({ appId: 'demo', env: 'production', chains: [1, 8453] })
    const ask = (method: string) =>
      kit.provider.request({ method }).then(
        (result) => ({ result }),
        (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
      )
    return [await ask('eth_chainId'), await ask('eth_accounts')]
  })
  const refused = { code: 4900, message: 'App "demo" offers none of this page\'s chains (1, 8453); it offers 31337, 31338' }
  expect(answers).toEqual([refused, refused])
})

test('the demo app offers the local chains only, which have no explorer', async ({ page, request }) => {
  await signUp(page, request)
  await page.evaluate(() => window.WalletKit!.kit!.open('chain'))
  const frame = frameOf(page)
  await expect(frame.getByRole('listbox', { name: 'Chains' }).getByRole('option')).toHaveText(['Local Chain 1', 'Local Chain 2'])
  await click(frame.getByRole('option', { name: /Local Chain 2/ }))
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  expect(await chainId(page)).toBe('0x7a6a')
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  await expect(frame.getByTestId('profile-address')).toBeVisible()
  await expect(frame.getByTestId('explorer-address')).toHaveCount(0)
})
