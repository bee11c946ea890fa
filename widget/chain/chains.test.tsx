// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { chainConfigOf, chainOfSlug } from '../../sdk/chain-table.ts'
import type { AppConfig, ChainClient, ChainConfig } from '../../sdk/index.ts'
import { Widget, type WidgetContext } from '../context.ts'
import { CallsStatus } from '../profile/CallsStatus.tsx'
import { ProfileModal } from '../profile/ProfileModal.tsx'
import { testContext } from '../rpc/context.fixture.ts'
import { alice, localChain, testWallet, setUi } from '../wallet.fixture.ts'
import { ChainList } from './ChainList.tsx'
import { ExplorerLink } from './ExplorerLink.tsx'
import { explorerLink } from './explorer.ts'
import { reachTimeoutMs, switchChain } from './switch.ts'

afterEach(cleanup)

const sepolia = chainConfigOf(chainOfSlug('sepolia')!)
const mantle = chainConfigOf(chainOfSlug('mantle')!)
const appChains: ChainConfig[] = [localChain(31337), localChain(31338), sepolia]
const hash = `0x${'ab'.repeat(32)}`
const withExplorer = (url: unknown, name: unknown = 'Scan'): ChainConfig =>
  ({ ...localChain(31337), blockExplorers: { default: { name, url } } }) as ChainConfig

describe('explorer links', () => {
  test("an address and a transaction on the chain's explorer (the app config's, viem's for a public chain)", () => {
    const etherscan = sepolia.blockExplorers!.default
    expect(explorerLink(sepolia, 'address', alice.address)).toEqual({ href: `${etherscan.url}/address/${alice.address}`, name: etherscan.name })
    expect(explorerLink(sepolia, 'tx', hash)).toEqual({ href: `${etherscan.url}/tx/${hash}`, name: etherscan.name })
    // viem writes some explorer URLs with a trailing slash: never a double one.
    expect(mantle.blockExplorers!.default.url.endsWith('/')).toBe(true)
    expect(explorerLink(mantle, 'tx', hash)?.href).toBe(`${mantle.blockExplorers!.default.url}tx/${hash}`)
    // An explorer under a path keeps it; a query or fragment on it is dropped.
    expect(explorerLink(withExplorer('https://scan.example/chain/7/?x=1#y'), 'tx', hash)?.href).toBe(`https://scan.example/chain/7/tx/${hash}`)
    expect(explorerLink(withExplorer('http://localhost:4000', ''), 'address', alice.address)).toEqual({
      href: `http://localhost:4000/address/${alice.address}`,
      name: 'localhost',
    })
  })

  test('none for a chain without an explorer (the local chains) or no chain', () => {
    expect(explorerLink(localChain(31337), 'address', alice.address)).toBeUndefined()
    expect(explorerLink(undefined, 'address', alice.address)).toBeUndefined()
  })

  test.each([
    'javascript:alert(document.domain)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    'file:///etc/passwd',
    '//scan.example',
    '/relative',
    'https://user:secret@scan.example',
    'not a url',
    '',
    42,
    null,
    { toString: () => 'https://scan.example' },
  ])('no link from an explorer URL %j', (url) => {
    expect(explorerLink(withExplorer(url), 'address', alice.address)).toBeUndefined()
  })

  test.each([
    ['address', '0x123'],
    ['address', `${alice.address}/../../evil`],
    ['address', `${alice.address}?x=1`],
    ['address', 'javascript:alert(1)'],
    ['address', hash],
    ['tx', alice.address],
    ['tx', `${hash}00`],
    ['tx', `0x${'zz'.repeat(32)}`],
  ] as const)('no link for a %s of %j', (kind, value) => {
    expect(explorerLink(sepolia, kind, value)).toBeUndefined()
  })

  test('a link opens in a new tab with no handle on the frame and no referrer', async () => {
    await renderWith(<ExplorerLink chain={sepolia} kind="tx" value={hash} />)
    const link = screen.getByRole('link', { name: `View on ${sepolia.blockExplorers!.default.name}` })
    expect(link.getAttribute('href')).toBe(`${sepolia.blockExplorers!.default.url}/tx/${hash}`)
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toBe('noopener noreferrer')
  })

  test("the profile's address links to the explorer of the chain it is on, and to nothing on a local chain", async () => {
    const { wallet } = await renderWith(<ProfileModal />)
    expect(screen.queryByTestId('explorer-address')).toBeNull()
    await act(() => wallet.switchChain(11155111))
    const link = screen.getByTestId('explorer-address')
    expect(link.getAttribute('href')).toBe(`${sepolia.blockExplorers!.default.url}/address/${alice.address}`)
    expect(link.getAttribute('rel')).toBe('noopener noreferrer')
    expect(link.textContent).toBe('View on Etherscan')
  })

  test("the Transaction Status page links the batch's transaction on its chain's explorer", async () => {
    const { wallet } = await renderWith(<CallsStatus />)
    act(() => setUi(wallet, { callsStatus: { id: '0x01', chainId: 11155111, status: 200, atomic: true, transactionHash: hash } }))
    expect(screen.getByTestId('explorer-tx').getAttribute('href')).toBe(`${sepolia.blockExplorers!.default.url}/tx/${hash}`)
    act(() => setUi(wallet, { callsStatus: { id: '0x02', chainId: 31337, status: 200, atomic: true, transactionHash: hash } }))
    expect(screen.queryByTestId('explorer-tx')).toBeNull()
  })
})

describe('switching to a chain that cannot be reached (a switch is pending, then succeeds, or fails and the selection reverts)', () => {
  const eth_chainId = (answer: (chainId: number) => Promise<unknown>) => {
    const asked: [number, string][] = []
    const rpc = (chainId: number): ChainClient => ({
      request: async <T,>({ method }: { method: string }) => {
        asked.push([chainId, method])
        return (await answer(chainId)) as T
      },
    })
    return { rpc, asked }
  }

  test('the chain list: a spinner while its RPC is asked, then the error line, the highlight back on the current chain, nothing switched', async () => {
    let fail!: (err: Error) => void
    const { rpc, asked } = eth_chainId(() => new Promise((_, reject) => (fail = reject)))
    const onSwitched = vi.fn()
    const { wallet, events } = await renderWith(<ChainList onSwitched={onSwitched} />, rpc)
    const row = (name: string) => screen.getByRole('option', { name: new RegExp(name) })
    expect(row('Local Chain 1').getAttribute('aria-selected')).toBe('true')

    await act(async () => row('Sepolia').click())
    expect(asked).toEqual([[11155111, 'eth_chainId']])
    expect(row('Sepolia').getAttribute('aria-selected')).toBe('true')
    expect(screen.getByRole('img', { name: 'Switching' })).toBeTruthy()
    // Another click meanwhile is ignored.
    await act(async () => row('Local Chain 2').click())
    expect(asked).toHaveLength(1)

    await act(async () => fail(new Error('All RPC URLs failed')))
    expect(screen.getByRole('alert').textContent).toBe('Sepolia cannot be reached right now. Try again later.')
    expect(row('Sepolia').getAttribute('aria-selected')).toBe('false')
    expect(row('Local Chain 1').getAttribute('aria-selected')).toBe('true')
    expect(screen.queryByRole('img', { name: 'Switching' })).toBeNull()
    expect(wallet.chainId()).toBe(31337)
    expect(events.filter(([e]) => e === 'chainChanged')).toEqual([])
    expect(onSwitched).not.toHaveBeenCalled()
  })

  test('the chain list: a chain that answers switches, and the list closes', async () => {
    const { rpc } = eth_chainId(async (chainId) => `0x${chainId.toString(16)}`)
    const onSwitched = vi.fn()
    const { wallet, events } = await renderWith(<ChainList onSwitched={onSwitched} />, rpc)
    await act(async () => screen.getByRole('option', { name: /Sepolia/ }).click())
    expect(wallet.chainId()).toBe(11155111)
    expect(events).toContainEqual(['chainChanged', '0xaa36a7'])
    expect(onSwitched).toHaveBeenCalledOnce()
    expect(screen.getByRole('alert').textContent).toBe('')
  })

  test.each([
    ['all RPC URLs fail', () => Promise.reject(new Error('All RPC URLs failed')), '(11155111) cannot be reached: All RPC URLs failed'],
    ['another chain answers', async () => '0x1', '(11155111) cannot be reached: its RPC answers for another chain ("0x1")'],
    ['a number, not a hex string', async () => 11155111, 'its RPC answers for another chain (11155111)'],
    ['hex too long to be an id', async () => `0x${'0'.repeat(20)}aa36a7`, 'its RPC answers for another chain'],
    ['no answer', async () => null, 'its RPC answers for another chain (null)'],
  ])('wallet_switchEthereumChain when %s: 4901, and nothing changes', async (_, answer, message) => {
    const t = testContext({ session: alice, chains: [31337, 31338, 11155111] })
    await t.wallet.restore()
    const { rpc } = eth_chainId(answer)
    t.ctx.rpc = rpc
    const result = await t.call('wallet_switchEthereumChain', [{ chainId: '0xaa36a7' }])
    expect(result).toMatchObject({ code: 4901, message: expect.stringContaining(message) })
    expect(t.wallet.chainId()).toBe(31337)
    expect(t.stored()?.chainId).toBe(31337)
    expect(t.events).toEqual([])
  })

  test('wallet_switchEthereumChain and wallet_addEthereumChain to a chain that answers: switched; to the current one or an unknown one: no RPC asked', async () => {
    const t = testContext({ session: alice })
    await t.wallet.restore()
    const { rpc, asked } = eth_chainId(async (chainId) => `0x${chainId.toString(16)}`)
    t.ctx.rpc = rpc
    expect(await t.call('wallet_switchEthereumChain', [{ chainId: '0x7a69' }])).toEqual({ result: null })
    expect(await t.call('wallet_switchEthereumChain', [{ chainId: '0x1' }])).toMatchObject({ code: 4902 })
    expect(asked).toEqual([])
    expect(await t.call('wallet_addEthereumChain', [{ chainId: '0x7a6a' }])).toEqual({ result: null })
    expect(asked).toEqual([[31338, 'eth_chainId']])
    expect(t.wallet.chainId()).toBe(31338)
    expect(t.events).toEqual([['chainChanged', '0x7a6a']])
  })

  test('an RPC that never answers fails the switch after the time limit', async () => {
    const t = testWallet({ session: alice })
    await t.wallet.restore()
    let signal: AbortSignal | undefined
    const rpc = (): ChainClient => ({
      request: (_args, options) =>
        new Promise((_, reject) => {
          signal = options?.signal
          signal?.addEventListener('abort', () => reject(signal!.reason))
        }),
    })
    await expect(switchChain({ wallet: t.wallet, rpc }, 31338, 30)).rejects.toMatchObject({
      code: 4901,
      message: expect.stringContaining('Local Chain 2 (31338) cannot be reached'),
    })
    expect(signal?.aborted).toBe(true)
    expect(t.wallet.chainId()).toBe(31337)
    expect(reachTimeoutMs).toBe(10_000)
  })
})

/** The widget with alice signed in on Local Chain 1, the app's chains being the local ones and Sepolia. */
async function renderWith(children: React.ReactNode, rpc: (chainId: number) => ChainClient = () => ({ request: async () => '0x0' as never })) {
  const t = testWallet({ session: alice, chains: appChains.map((c) => c.chainId) })
  await t.wallet.restore()
  t.wallet.open('profile')
  // The test wallet names every chain after the local ones: the app config's names and explorers here.
  const wallet = { ...t.wallet, chains: appChains, chain: (chainId = t.wallet.chainId()) => appChains.find((c) => c.chainId === chainId) }
  const config = { isAAEnabled: false, showPoweredBy: false, rampableClientSecret: null, chains: appChains } as unknown as AppConfig
  const value = { wallet, client: {}, config, rpc, locale: 'en', presentation: 'frame', mode: 'frame', persistent: true, walletConnect: null, secure: null }
  const { QueryClient, QueryClientProvider } = await import('@tanstack/react-query')
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <Widget.Provider value={value as unknown as WidgetContext}>
      <QueryClientProvider client={queries}>{children}</QueryClientProvider>
    </Widget.Provider>,
  )
  return { ...t, wallet }
}
