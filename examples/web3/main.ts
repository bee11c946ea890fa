// web3.js v4 over the kit's EIP-1193 provider, unmodified.
import { Web3 } from 'web3'
import { createWalletKit } from 'wallet-kit'
import { mountExample } from '../shared/example.ts'

const kit = createWalletKit({ appId: 'demo' })
const web3 = new Web3(kit.provider)

mountExample('web3.js v4', {
  async connect() {
    const [address] = await web3.eth.requestAccounts()
    return { address: address!, chainId: Number(await web3.eth.getChainId()) }
  },
  async sign(message) {
    const [address] = await web3.eth.getAccounts()
    const signature = await web3.eth.personal.sign(message, address!, '')
    return { signature, verified: web3.eth.accounts.recover(message, signature).toLowerCase() === address!.toLowerCase() }
  },
})
