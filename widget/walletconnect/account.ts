import { createPublicClient, custom, numberToHex, parseEther } from 'viem'
import { type Hex, isHash, isHexBytes } from '../../bridge/rpc-params.ts'
import type { ChainClient, ChainConfig, TransactionRequest } from '../../sdk/index.ts'
import type { Account } from '../accounts/account.ts'
import type { WalletConnectClient } from './client.ts'

/** A decimal string of the service's transaction shape (wei, gas), as the JSON-RPC quantity wallets read. */
const quantity = (value: string | number | undefined) => (value === undefined || value === '' ? undefined : numberToHex(BigInt(value)))

/**
 * The transaction in the wallet service's shape (tx.ts: the value in whole units, gas figures as
 * decimal strings) as eth_sendTransaction's JSON-RPC object; fields left out stay out (the wallet fills them).
 */
export function rpcTransaction(tx: TransactionRequest & { data: string }) {
  const fields = {
    from: tx.from,
    to: tx.to,
    data: tx.data,
    value: tx.value === undefined ? undefined : numberToHex(parseEther(tx.value)),
    nonce: quantity(tx.nonce),
    gas: quantity(tx.gasLimit),
    gasPrice: quantity(tx.gasPrice),
    maxFeePerGas: quantity(tx.maxFeePerGas),
    maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas),
  }
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))
}

/** Hex of `min` to `max` whole bytes. */
const bytesBetween =
  (min: number, max: number) =>
  (v: unknown): v is Hex =>
    isHexBytes(v) && v.length >= 2 + 2 * min && v.length <= 2 + 2 * max

/**
 * What a wallet's answers must look like: a signature (65 bytes, or a contract wallet's longer
 * ERC-1271/6492 one, up to 16 KB), a transaction hash, a signed transaction (up to 256 KB).
 */
export const answers = {
  signature: bytesBetween(65, 16384),
  hash: isHash,
  signedTransaction: bytesBetween(1, 262144),
}

/**
 * A wallet paired over WalletConnect (a phone, the sandbox wallet): every signature goes to it and
 * the user confirms there, so the frame shows 'Confirm in your wallet' instead of its own Confirm.
 * Fee estimates are read from the chain (the wallet service knows nothing of this account).
 */
export function walletConnectAccount(options: {
  wc: WalletConnectClient
  topic: string
  address: `0x${string}`
  chain: ChainConfig
  rpc: ChainClient
}): Account {
  const { wc, topic, address, chain } = options
  /** The wallet's answer, if it has the shape the method's answer must have: anything else never reaches the host. */
  const ask = async (method: string, params: unknown[], shape: (v: unknown) => v is Hex): Promise<Hex> => {
    const answer = await wc.request<unknown>(topic, chain.chainId, method, params)
    if (!shape(answer)) throw new Error(`the wallet's answer to ${method} is not one`)
    return answer
  }
  const reads = createPublicClient({ transport: custom({ request: (args) => options.rpc.request(args) }) })
  return {
    source: 'walletconnect',
    address,
    chain,
    confirmsOnDevice: true,
    signMessage: (bytes) => ask('personal_sign', [bytes, address], answers.signature),
    signTypedData: (json) => ask('eth_signTypedData_v4', [address, json], answers.signature),
    async estimateGas(tx) {
      const [gas, fees] = await Promise.all([
        reads.estimateGas({
          account: address,
          to: tx.to as `0x${string}`,
          ...(tx.data && { data: tx.data as `0x${string}` }),
          ...(tx.value && { value: parseEther(tx.value) }),
        }),
        reads.estimateFeesPerGas({ chain: null }),
      ])
      return { gasLimit: gas.toString(), maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString() }
    },
    sendTransaction: (tx) => ask('eth_sendTransaction', [rpcTransaction(tx)], answers.hash),
    signTransaction: (tx) => ask('eth_signTransaction', [rpcTransaction(tx)], answers.signedTransaction),
    // Whatever the wallet can do, this kit sends calls one by one.
    atomic: 'unsupported',
  }
}
