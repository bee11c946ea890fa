import { Core } from '@walletconnect/core'
import { WalletKit, type WalletKitTypes } from '@reown/walletkit'
import { createWalletClient, formatEther, http, publicActions, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

// The sandbox's mobile wallet: what a phone wallet does, in a browser tab on the provider origin.
// Its key is this browser's (localStorage), funded once by the sandbox faucet; it pairs from a
// pasted wc: URI or from ?uri= (its universal link), and the person approves or rejects each
// proposal and request. Development only: the sandbox serves it under /dev/wallet.

type WalletConfig = { relayPath: string; projectId: string; chains: { chainId: number; name: string; rpcPath: string }[] }

const userRejected = { code: 5000, message: 'User rejected.' }
const methods = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'eth_signTransaction', 'wallet_switchEthereumChain']
const events = ['accountsChanged', 'chainChanged']

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T
const status = (text: string) => {
  $('[data-testid="wallet-status"]').textContent = text
}

function loadKey(): { key: Hex; fresh: boolean } {
  const stored = localStorage.getItem('sandbox-wallet-key')
  if (stored && /^0x[0-9a-f]{64}$/.test(stored)) return { key: stored as Hex, fresh: false }
  const key = generatePrivateKey()
  localStorage.setItem('sandbox-wallet-key', key)
  return { key, fresh: true }
}

async function main() {
  const config = (await (await fetch('/dev/api/wallet-config')).json()) as WalletConfig
  // The relay and the RPC URLs on the origin this page was opened on (localhost or 127.0.0.1).
  const relayUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${config.relayPath}`
  const rpcUrl = (chain: WalletConfig['chains'][number]) => `${location.origin}${chain.rpcPath}`
  const { key, fresh } = loadKey()
  const account = privateKeyToAccount(key)
  $('[data-testid="wallet-address"]').textContent = account.address
  const clients = new Map(
    config.chains.map((c) => [
      c.chainId,
      createWalletClient({
        account,
        chain: { id: c.chainId, name: c.name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl(c)] } } },
        transport: http(rpcUrl(c)),
      }).extend(publicActions),
    ]),
  )
  const first = clients.get(config.chains[0]!.chainId)!
  if (fresh || (await first.getBalance({ address: account.address })) === 0n) {
    status('Asking the sandbox faucet for test funds…')
    await fetch(`/dev/api/wallets/${account.address}/fund`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  }
  status(`${formatEther(await first.getBalance({ address: account.address }))} ETH on ${config.chains[0]!.name}`)

  const core = new Core({ projectId: config.projectId, relayUrl, customStoragePrefix: 'sandbox-wallet', logger: 'fatal' })
  // Nothing leaves this machine: no telemetry event, no verify server (it would be asked before each proposal).
  core.eventClient.init = async () => {}
  core.verify.register = async () => ''
  const kit = await WalletKit.init({
    core,
    metadata: { name: 'Sandbox Wallet', description: 'The wallet-kit sandbox mobile wallet', url: location.origin, icons: [] },
  })
  const supported = config.chains.map((c) => `eip155:${c.chainId}`)

  const pending = $('#pending')
  const renderSessions = () => {
    const list = $('#sessions')
    list.replaceChildren(
      ...Object.values(kit.getActiveSessions()).map((session) => {
        const li = document.createElement('li')
        li.dataset.testid = 'session'
        li.append(`${session.peer.metadata.name} (${session.peer.metadata.url}) `)
        li.append(
          button('Disconnect', async () => {
            await kit.disconnectSession({ topic: session.topic, reason: { code: 6000, message: 'User disconnected.' } })
            renderSessions()
          }),
        )
        return li
      }),
    )
  }
  const ask = (testId: string, title: string, details: string, approve: () => Promise<void>, reject: () => Promise<void>) => {
    const li = document.createElement('li')
    li.dataset.testid = testId
    const heading = document.createElement('strong')
    heading.textContent = title
    const pre = document.createElement('pre')
    pre.textContent = details
    const done = (work: () => Promise<void>) => async () => {
      for (const b of li.querySelectorAll('button')) b.disabled = true
      try {
        await work()
      } catch (err) {
        status(`Failed: ${(err as Error).message}`)
      }
      li.remove()
      $('#nothing').hidden = pending.children.length > 0
      renderSessions()
    }
    const actions = document.createElement('div')
    actions.className = 'actions'
    actions.append(button('Approve', done(approve), true), button('Reject', done(reject)))
    li.append(heading, pre, actions)
    pending.append(li)
    $('#nothing').hidden = true
  }

  kit.on('session_proposal', ({ id, params }: WalletKitTypes.SessionProposal) => {
    const wanted = [...(params.requiredNamespaces.eip155?.chains ?? []), ...(params.optionalNamespaces.eip155?.chains ?? [])]
    const chains = wanted.filter((c) => supported.includes(c))
    ask(
      'proposal',
      `${params.proposer.metadata.name} wants to connect`,
      `${params.proposer.metadata.url}\nchains: ${wanted.join(', ')}`,
      async () => {
        await kit.approveSession({
          id,
          namespaces: { eip155: { chains, methods, events, accounts: chains.map((c) => `${c}:${account.address}`) } },
        })
      },
      () => kit.rejectSession({ id, reason: userRejected }),
    )
  })

  kit.on('session_request', ({ id, topic, params }) => {
    const { method, params: args } = params.request as { method: string; params: unknown[] }
    const chainId = Number(params.chainId.split(':')[1])
    const client = clients.get(chainId)
    const respond = (result: unknown) => kit.respondSessionRequest({ topic, response: { id, jsonrpc: '2.0', result } })
    const refuse = (error: { code: number; message: string }) => kit.respondSessionRequest({ topic, response: { id, jsonrpc: '2.0', error } })
    if (!client) return void refuse({ code: 5100, message: `Chain ${params.chainId} is not supported` })
    const run = async (): Promise<unknown> => {
      switch (method) {
        case 'personal_sign':
          return account.signMessage({ message: { raw: args[0] as Hex } })
        case 'eth_signTypedData_v4':
          return account.signTypedData(JSON.parse(args[1] as string))
        case 'eth_sendTransaction':
          return client.sendTransaction(transaction(args[0]))
        case 'eth_signTransaction':
          return client.signTransaction(await client.prepareTransactionRequest(transaction(args[0])))
        case 'wallet_switchEthereumChain': {
          const next = Number((args[0] as { chainId: string }).chainId)
          await kit.emitSessionEvent({ topic, chainId: `eip155:${next}`, event: { name: 'chainChanged', data: next } })
          return null
        }
        default:
          throw Object.assign(new Error(`${method} is not supported`), { code: 4200 })
      }
    }
    ask(
      'request',
      method,
      JSON.stringify(args, null, 2),
      async () => {
        try {
          await respond(await run())
        } catch (err) {
          await refuse({ code: (err as { code?: number }).code ?? -32603, message: (err as Error).message })
        }
      },
      () => refuse(userRejected),
    )
  })
  kit.on('session_delete', renderSessions)

  $('#pair').addEventListener('submit', (event) => {
    event.preventDefault()
    const input = $<HTMLInputElement>('#pair input')
    void pair(input.value.trim())
    input.value = ''
  })
  const pair = async (uri: string) => {
    status('Pairing…')
    try {
      await kit.pair({ uri })
      status('Paired: waiting for the site')
    } catch (err) {
      status(`Pairing failed: ${(err as Error).message}`)
    }
  }
  renderSessions()
  const fromLink = new URLSearchParams(location.search).get('uri')
  if (fromLink) {
    history.replaceState(null, '', location.pathname)
    await pair(fromLink)
  }
  document.body.dataset.ready = 'true'
}

/** The dapp's JSON-RPC transaction as viem's request (quantities as bigint). */
function transaction(raw: unknown) {
  const tx = raw as Record<string, string | undefined>
  const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v))
  return {
    to: tx.to as Hex,
    data: tx.data as Hex | undefined,
    value: big(tx.value),
    gas: big(tx.gas),
    nonce: tx.nonce === undefined ? undefined : Number(tx.nonce),
    maxFeePerGas: big(tx.maxFeePerGas),
    maxPriorityFeePerGas: big(tx.maxPriorityFeePerGas),
  }
}

function button(label: string, onClick: () => void, primary = false) {
  const b = document.createElement('button')
  b.type = 'button'
  b.textContent = label
  if (primary) b.className = 'primary'
  b.addEventListener('click', onClick)
  return b
}

main().catch((err: unknown) => status(`The wallet could not start: ${(err as Error).message}`))
