// The demo dapp: the kit from the script tag, used through viem as any dapp would.
import { createPublicClient, createWalletClient, custom, erc20Abi, formatUnits, parseEther, type Address } from 'viem'
import './demo.css'

/** The sandbox's demo ERC-20, at the same address on both local chains (sandbox/README.md). */
const demoToken: Address = '0x8464135c8F25Da09e49BC8782676a84730C318bC'

const kit = window.WalletKit?.kit
const $ = (id: string) => document.getElementById(id)!
const field = (testId: string) => document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)!
let account: Address | undefined

function show(accounts: readonly string[]) {
  account = accounts[0] as Address | undefined
  $('account').textContent = account ?? '—'
  $('status').textContent = account ? 'Connected' : 'Not connected'
  $('connect').textContent = account ? 'Connected' : 'Connect'
  for (const id of ['sign', 'send', 'balance']) ($(id) as HTMLButtonElement).disabled = !account
}

/** Runs a button's action and shows what failed, with its EIP-1193 code. */
function action(id: string, run: () => Promise<void>) {
  $(id).addEventListener('click', async () => {
    $('error').textContent = ''
    try {
      await run()
    } catch (err) {
      const e = err as { shortMessage?: string; message: string; code?: number; cause?: { code?: number } }
      $('error').textContent = `${e.shortMessage ?? e.message} (code ${e.code ?? e.cause?.code ?? '?'})`
    }
  })
}

if (!kit) {
  $('error').textContent = 'kit.js did not load: is the provider sandbox running on http://localhost:8787?'
} else {
  const wallet = createWalletClient({ transport: custom(kit.provider) })
  const reader = createPublicClient({ transport: custom(kit.provider) })
  const showChain = (hex: string) => ($('chain').textContent = String(parseInt(hex, 16)))

  kit.provider.on('accountsChanged', show as never)
  kit.provider.on('chainChanged', showChain as never)
  action('connect', async () => show(await wallet.requestAddresses()))
  action('sign', async () => {
    field('signature').textContent = await wallet.signMessage({ account: account!, message: 'Hello from the Wallet Kit demo' })
  })
  action('send', async () => {
    const hash = await wallet.sendTransaction({ account: account!, to: account!, value: parseEther('0.001'), chain: null })
    field('transaction').textContent = hash
    const receipt = await reader.waitForTransactionReceipt({ hash })
    field('transaction').textContent = `${hash} (${receipt.status} in block ${receipt.blockNumber})`
  })
  action('balance', async () => {
    const balance = await reader.readContract({ address: demoToken, abi: erc20Abi, functionName: 'balanceOf', args: [account!] })
    field('token-balance').textContent = `${formatUnits(balance, 18)} DEMO`
  })
  Promise.all([wallet.getAddresses(), wallet.getChainId()])
    .then(([accounts, chainId]) => {
      show(accounts)
      $('chain').textContent = String(chainId)
    })
    .catch((err: Error) => ($('error').textContent = err.message))
}
