// viem's wallet client over the kit's EIP-1193 provider, unmodified.
import { createWalletClient, custom, verifyMessage } from 'viem'
import { createWalletKit } from 'wallet-kit'
import { mountExample } from '../shared/example.ts'

const kit = createWalletKit({ appId: 'demo' })
const client = createWalletClient({ transport: custom(kit.provider) })

mountExample('viem', {
  async connect() {
    const [address] = await client.requestAddresses()
    return { address: address!, chainId: await client.getChainId() }
  },
  async sign(message) {
    const [account] = await client.getAddresses()
    const signature = await client.signMessage({ account: account!, message })
    return { signature, verified: await verifyMessage({ address: account!, message, signature }) }
  },
})
