// wagmi finds the kit the way it finds any browser wallet: EIP-6963 (multiInjectedProviderDiscovery).
import { connect, createConfig, getAccount, getConnectors, signMessage, watchConnectors } from '@wagmi/core'
import { defineChain, http, verifyMessage } from 'viem'
import { createWalletKit } from 'wallet-kit'
import { mountExample } from '../shared/example.ts'

const local = defineChain({
  id: 31337,
  name: 'Local Chain 1',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://localhost:8787/rpc/31337'] } },
})
// Before the config, like a browser wallet that announced itself before the dapp started: wagmi
// skips wallets that announce while it is still loading its storage (right after createConfig).
createWalletKit({ appId: 'demo' })
const config = createConfig({ chains: [local], transports: { [local.id]: http() } })

const kitConnector = () => getConnectors(config).find((c) => c.id === 'dev.walletkit')

mountExample('wagmi', {
  async connect() {
    const connector = kitConnector()
    if (!connector) throw new Error('The wallet kit did not announce itself (EIP-6963)')
    const { accounts, chainId } = await connect(config, { connector })
    return { address: accounts[0], chainId }
  },
  async sign(message) {
    const { address } = getAccount(config)
    const signature = await signMessage(config, { message })
    return { signature, verified: await verifyMessage({ address: address!, message, signature }) }
  },
})

// What wagmi discovered, by name (the test looks for "Wallet Kit").
const list = document.createElement('p')
list.dataset.testid = 'connectors'
document.querySelector('.card')!.append(list)
const show = () =>
  (list.textContent = getConnectors(config)
    .map((c) => c.name)
    .join(', '))
watchConnectors(config, { onChange: show })
show()
