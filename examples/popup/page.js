// Both popup-mode pages: Connect asks for accounts; the account shown follows the wallet.
const kit = WalletKit.kit
const account = document.querySelector('[data-testid=account]')
const show = (accounts) => (account.textContent = accounts[0] ?? '—')
kit.provider.on('accountsChanged', show)
kit.provider.request({ method: 'eth_accounts' }).then(show)
document.querySelector('[data-testid=connect]').addEventListener('click', () => {
  kit.provider.request({ method: 'eth_requestAccounts' }).then(show, () => {})
})
