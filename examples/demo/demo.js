// Uses only the public EIP-1193 provider, as any dapp would.
const kit = window.WalletKit?.kit
const $ = (id) => document.getElementById(id)

function show(accounts) {
  const account = accounts[0]
  $('account').textContent = account ?? '—'
  $('status').textContent = account ? 'Connected' : 'Not connected'
  $('connect').textContent = account ? 'Connected' : 'Connect'
}

async function refresh() {
  const provider = kit.provider
  show(await provider.request({ method: 'eth_accounts' }))
  $('chain').textContent = String(parseInt(await provider.request({ method: 'eth_chainId' }), 16))
}

if (!kit) {
  $('error').textContent = 'kit.js did not load: is the provider sandbox running on http://localhost:8787?'
} else {
  kit.provider.on('accountsChanged', show)
  $('connect').addEventListener('click', async () => {
    $('error').textContent = ''
    try {
      show(await kit.provider.request({ method: 'eth_requestAccounts' }))
    } catch (err) {
      $('error').textContent = `${err.message} (code ${err.code})`
    }
  })
  refresh().catch((err) => ($('error').textContent = `${err.message} (code ${err.code})`))
}
