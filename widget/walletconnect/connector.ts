import { ChainDisconnectedError, DisconnectedError } from '../../bridge/error-classes.ts'
import { isAddress } from '../../bridge/rpc-params.ts'
import type { AppConfig, ChainClient } from '../../sdk/index.ts'
import type { Account } from '../accounts/account.ts'
import type { Wallet } from '../wallet.ts'
import { walletConnectAccount } from './account.ts'
import { openWalletConnect } from './client.ts'
import { sessionTransport, type WalletEvent } from './session-transport.ts'
import { type KeyValueStorage, topicKey } from './storage.ts'

/**
 * The page (origin) the stored session was paired from. Pages of one site share the frame's
 * storage, but the wallet showed the user that page (its metadata url): only it takes the session
 * up after a reload; any other page of the app starts with nobody connected (issue 21).
 */
export const siteKey = 'wallet-kit:topic-site'

/** A pairing on the QR page: its URI, the wallet's answer, and `cancel` once the page leaves it (a late approval is then refused). */
export type Pairing = { uri: string; approval: Promise<void>; cancel(): void }

/**
 * The frame's WalletConnect connection: pairing (the QR page asks), the session once approved (an
 * account source, accounts/active.ts), its restore after a reload, and the wallet's own events
 * (accounts, chain, the wallet ending the session).
 */
export function createConnector(deps: {
  wallet: Wallet
  config: AppConfig['walletConnect']
  appName: string
  storage: KeyValueStorage
  rpc: (chainId: number) => ChainClient
}) {
  const { wallet, storage } = deps
  let opened: ReturnType<typeof open> | undefined
  /** The newest pairing: only its approval may connect. */
  let latest = 0
  /** The session held, with the loaded code that acts for it. */
  let held: { topic: string; chainIds: number[]; wc: Opened['wc']; build: Opened['build']; stop(): void } | null = null

  const open = async () => {
    const wc = await openWalletConnect({
      relayUrl: deps.config.relayUrl,
      projectId: deps.config.projectId,
      storage,
      metadata: { name: deps.appName, description: `${deps.appName} (wallet-kit)`, url: wallet.hostOrigin, icons: [] },
    })
    return { wc, build: walletConnectAccount }
  }
  type Opened = Awaited<ReturnType<typeof open>>
  const client = () =>
    (opened ??= open().catch((error: unknown) => {
      opened = undefined
      throw error
    }))

  /** The wallet's own events on the session held: its chain, its account. */
  function follow(event: WalletEvent) {
    if (!held) return
    if (event.name === 'chainChanged') {
      const chainId = Number(event.data)
      if (held.chainIds.includes(chainId) && wallet.chain(chainId)) void wallet.switchChain(chainId)
      return
    }
    const next = String(event.data[0] ?? '')
      .split(':')
      .at(-1)
    if (isAddress(next)) wallet.connectedRemotely({ address: next, peer: wallet.ui.get().session?.walletConnect?.peer ?? 'Wallet' })
    else void ended()
  }

  async function ended() {
    held?.stop()
    held = null
    await storage.removeItem(topicKey).catch(() => {})
    await storage.removeItem(siteKey).catch(() => {})
    wallet.remoteEnded()
  }

  function adopt(loaded: Opened, session: { topic: string; address: `0x${string}`; chainIds: number[]; peer: string }) {
    // The session's events and its end come through its transport (session-transport.ts).
    const stop = sessionTransport(loaded.wc, session.topic).listen({ message: follow, ended: () => void ended() })
    held = { topic: session.topic, chainIds: session.chainIds, ...loaded, stop }
    wallet.reconnected()
    const chainId = session.chainIds.includes(wallet.chainId()) ? wallet.chainId() : session.chainIds.find((id) => wallet.chain(id))
    if (chainId !== undefined && chainId !== wallet.chainId()) void wallet.switchChain(chainId)
    wallet.connectedRemotely({ address: session.address, peer: session.peer })
  }

  wallet.setWalletConnect({
    async disconnect() {
      const topic = held?.topic
      if (topic) await held?.wc.disconnect(topic).catch((err: unknown) => console.warn('wallet-kit: the wallet did not hear the disconnect:', err))
      await ended()
    },
  })

  return {
    /** A new pairing for the QR page. The approval settles once the wallet answers (rejects on a refusal). */
    async pair(): Promise<Pairing> {
      const loaded = await client()
      const { wc } = loaded
      const chainIds = wallet.chains.map((c) => c.chainId)
      const { uri, approval } = await wc.pair(chainIds)
      const mine = ++latest
      let cancelled = false
      return {
        uri,
        cancel: () => {
          cancelled = true
        },
        approval: approval.then(async ({ session, topic }) => {
          // An earlier QR (or one the page left) approved later, or a wallet already connected:
          // the session it made is ended, and nothing changes here.
          if (cancelled || mine !== latest || held) {
            await wc.disconnect(topic).catch(() => {})
            throw new Error('This pairing was replaced')
          }
          // An approval without any EIP-155 account on our chains: 'No chains found on connector.'
          const usable = session && { ...session, chainIds: session.chainIds.filter((id) => wallet.chain(id)) }
          if (!usable || usable.chainIds.length === 0) {
            await wc.disconnect(topic).catch(() => {})
            throw new Error('No chains found on connector.')
          }
          await storage.setItem(topicKey, topic)
          await storage.setItem(siteKey, wallet.hostOrigin)
          adopt(loaded, usable)
        }),
      }
    },
    /** After a reload: the stored session with `topic`, if the wallet has not ended it meanwhile. */
    async restore(topic: string) {
      if (wallet.ui.get().session) return
      // Paired from another page (or before pages were told apart): it stays that page's.
      if ((await storage.getItem(siteKey).catch(() => undefined)) !== wallet.hostOrigin) return
      const loaded = await client()
      const session = loaded.wc.restore(topic)
      if (!session) return void (await storage.removeItem(topicKey))
      // Stale: the app has chains the wallet never approved (it asked for fewer ones then). Taken
      // up, every call on those chains would fail (4901); the wallet is asked again instead.
      if (wallet.chains.some((c) => !session.chainIds.includes(c.chainId))) {
        await loaded.wc.disconnect(topic).catch(() => {})
        await storage.removeItem(topicKey).catch(() => {})
        await storage.removeItem(siteKey).catch(() => {})
        if (!wallet.ui.get().session) wallet.askToReconnect(session.peer)
        return
      }
      if (!wallet.ui.get().session) adopt(loaded, { ...session, chainIds: session.chainIds.filter((id) => wallet.chain(id)) })
    },
    /** The account signing requests act for while a WalletConnect wallet is connected. */
    account(): Account {
      const session = wallet.ui.get().session
      const chain = wallet.chain()
      if (!held || !session?.walletConnect) throw new DisconnectedError({ message: 'The wallet is not connected' })
      if (!chain || !held.chainIds.includes(chain.chainId))
        throw new ChainDisconnectedError({
          message: `${session.walletConnect.peer} does not offer chain ${wallet.chainId()}: switch chains or connect again`,
        })
      return held.build({ wc: held.wc, topic: held.topic, address: session.address, chain, rpc: deps.rpc(chain.chainId) })
    },
  }
}

export type Connector = ReturnType<typeof createConnector>
