// ethers v6 over the kit's EIP-1193 provider, unmodified.
import { BrowserProvider, verifyMessage } from 'ethers'
import { createWalletKit } from 'wallet-kit'
import { mountExample } from '../shared/example.ts'

const kit = createWalletKit({ appId: 'demo' })
const provider = new BrowserProvider(kit.provider)

mountExample('ethers v6', {
  async connect() {
    const signer = await provider.getSigner() // eth_requestAccounts: the connect modal
    const { chainId } = await provider.getNetwork()
    return { address: await signer.getAddress(), chainId: Number(chainId) }
  },
  async sign(message) {
    const signer = await provider.getSigner()
    const signature = await signer.signMessage(message)
    return { signature, verified: verifyMessage(message, signature) === (await signer.getAddress()) }
  },
})
