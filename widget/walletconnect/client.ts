import { SignClient } from '@walletconnect/sign-client'
import { isAddress, sameAddress } from '../../bridge/rpc-params.ts'
import type { KeyValueStorage } from './storage.ts'

/**
 * The dapp side of WalletConnect, in the frame: it is large, so it lives where the QR page is, and
 * the host never sees the pairing, the session or what passes through it. Loaded only for the 'Scan QR Code' page or a stored session.
 * Nothing leaves for a third party: telemetry off, the verify server never asked (offline, the
 * client waits 5 s for it before every proposal and request).
 */
export type WalletConnectClient = Awaited<ReturnType<typeof openWalletConnect>>

type StoredSession = ReturnType<InstanceType<typeof SignClient>['session']['getAll']>[number]

/** What the wallet approved: its first EIP-155 account, and every chain it offers. */
export type ApprovedSession = { topic: string; address: `0x${string}`; chainIds: number[]; peer: string }

/** An approved session's accounts ('eip155:<chain>:<address>'), read into one address and its chains. */
export function readSession(session: Pick<StoredSession, 'topic' | 'namespaces' | 'peer'>): ApprovedSession | null {
  const accounts = session.namespaces.eip155?.accounts ?? []
  const parsed = accounts
    .map((a) => a.split(':'))
    .filter(([namespace, chainId, address, ...rest]) => namespace === 'eip155' && /^\d+$/.test(chainId ?? '') && isAddress(address) && !rest.length)
    .map(([, chainId, address]) => ({ chainId: Number(chainId), address: address as `0x${string}` }))
  const first = parsed[0]
  if (!first) return null
  const chainIds = [...new Set(parsed.filter((p) => sameAddress(p.address, first.address)).map((p) => p.chainId))]
  return { topic: session.topic, address: first.address, chainIds, peer: session.peer.metadata.name || 'Wallet' }
}

export async function openWalletConnect(options: {
  relayUrl: string
  projectId: string
  storage: KeyValueStorage
  metadata: { name: string; description: string; url: string; icons: string[] }
}) {
  const client = await SignClient.init({
    relayUrl: options.relayUrl,
    projectId: options.projectId,
    telemetryEnabled: false,
    logger: 'fatal',
    customStoragePrefix: 'wallet-kit',
    storage: options.storage,
    metadata: options.metadata,
  })
  client.core.verify.register = async () => ''
  client.core.eventClient.init = async () => {}
  return {
    client,
    /** A new pairing: its URI at once, the wallet's answer later. */
    async pair(chainIds: readonly number[]) {
      const chains = chainIds.map((id) => `eip155:${id}`)
      const { uri, approval } = await client.connect({
        optionalNamespaces: {
          eip155: {
            chains,
            methods: ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'eth_signTransaction', 'wallet_switchEthereumChain'],
            events: ['accountsChanged', 'chainChanged'],
          },
        },
      })
      if (!uri) throw new Error('No pairing URI')
      return { uri, approval: approval().then((s) => ({ session: readSession(s), topic: s.topic })) }
    },
    /** The stored session with `topic`, if the wallet has not ended it meanwhile. */
    restore(topic: string): ApprovedSession | null {
      const session = client.session.getAll().find((s) => s.topic === topic)
      return session ? readSession(session) : null
    },
    request<T>(topic: string, chainId: number, method: string, params: unknown[]): Promise<T> {
      return client.request<T>({ topic, chainId: `eip155:${chainId}`, request: { method, params } })
    },
    async disconnect(topic: string) {
      await client.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } })
    },
  }
}
