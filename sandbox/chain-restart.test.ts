import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { encodeFunctionData, erc20Abi, parseEther, type Address } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { demoContracts } from './contracts/deploy.ts'
import { startTestSandbox, type TestSandbox } from './sandbox.fixture.ts'

// The reliability case of a chain process that dies under a running sandbox (issue 15): while it is
// down, reads and sends fail at once with a normalised error (the envelope, or a JSON-RPC error on
// the public proxy), never a hang; the sandbox restarts it on the same RPC URL with its saved state,
// and reads, sends and nonces carry on.

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const dead: Address = '0x000000000000000000000000000000000000dEaD'

/** The pid of the anvil serving `chainId` for this sandbox: the process whose command line names its state file. */
function anvilPid(chainId: number): number | undefined {
  const statePath = join(sandbox.dataDir, `chain-${chainId}.json`)
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0]
      if (args.includes(statePath) && args.some((arg) => arg.endsWith('/anvil')) && state !== 'Z') return Number(entry)
    } catch {
      // gone meanwhile
    }
  }
  return undefined
}

/** A JSON-RPC call through the sandbox's public proxy: the status, the body and how long it took. */
async function rpc(chainId: number, method: string, params: unknown[], id = 7) {
  const started = Date.now()
  const response = await fetch(`${sandbox.url}/rpc/${chainId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    signal: AbortSignal.timeout(10_000),
  })
  return { status: response.status, body: await response.json(), ms: Date.now() - started }
}

/** The chain's own RPC URL answers eth_chainId (true) or not (false). */
const chainAnswers = async (rpcUrl: string) => {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(5_000),
  }).catch(() => undefined)
  return response?.status === 200
}

test.runIf(process.platform === 'linux')(
  'an anvil killed under a running sandbox: reads and sends fail at once with a normalised error, then recover with its state and nonces',
  async () => {
    const wallet = await sandbox.signUp('chain-restart@example.com')
    const send = (network: string) =>
      sandbox.post(
        '/api/v2/wallet/send-transaction',
        { network, transaction: { from: wallet.address, to: dead, value: '0.5', data: '0x' } },
        wallet.walletToken,
      )
    const balance = (network: string) => sandbox.post('/api/v2/wallet/balance-coin', { network }, wallet.walletToken)
    const tokenCall = [
      { to: demoContracts.demoToken.address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [wallet.address] }) },
      'latest',
    ]

    const sent = await send('local-1')
    expect(sent.status).toBe(200)
    expect(sent.body.data.txReceipt).toMatchObject({ nonce: 0, status: 'success' })
    const balanceBefore = (await balance('local-1')).body.data.balance as string
    const tokensBefore = (await rpc(31337, 'eth_call', tokenCall)).body.result as string
    expect(BigInt(tokensBefore)).toBe(parseEther('1000'))

    // anvil saves its state every few seconds (and on a clean stop): a crash keeps what the last save had.
    const statePath = join(sandbox.dataDir, 'chain-31337.json')
    const sentAt = Date.now()
    await expect.poll(() => statSync(statePath).mtimeMs > sentAt + 100, { timeout: 15_000, interval: 100 }).toBe(true)

    const chain = sandbox.chains[0]!
    const pid = anvilPid(31337)
    expect(pid).toBeDefined()
    process.kill(pid!, 'SIGKILL')
    await expect.poll(() => chainAnswers(chain.rpcUrl), { timeout: 5_000, interval: 10 }).toBe(false)

    // Down: every read and send answers at once, normalised; the other chain is untouched.
    const started = Date.now()
    const [proxyBalance, proxyCall, walletBalance, walletSend, otherChain] = await Promise.all([
      rpc(31337, 'eth_getBalance', [wallet.address, 'latest'], 11),
      rpc(31337, 'eth_call', tokenCall, 12),
      balance('local-1'),
      send('local-1'),
      balance('local-2'),
    ])
    expect(Date.now() - started).toBeLessThan(5_000)
    expect({ status: proxyBalance.status, body: proxyBalance.body }).toEqual({
      status: 502,
      body: { jsonrpc: '2.0', id: 11, error: { code: -32603, message: 'Chain unavailable' } },
    })
    expect({ status: proxyCall.status, body: proxyCall.body }).toEqual({
      status: 502,
      body: { jsonrpc: '2.0', id: 12, error: { code: -32603, message: 'Chain unavailable' } },
    })
    expect({ status: walletBalance.status, body: walletBalance.body }).toEqual({ status: 502, body: { status: 502, message: 'Chain unavailable', data: null } })
    expect({ status: walletSend.status, body: walletSend.body }).toEqual({ status: 502, body: { status: 502, message: 'Chain unavailable', data: null } })
    expect(otherChain.status).toBe(200)
    expect(otherChain.body.data.balance).toBe('10')

    // The sandbox starts it again on the same RPC URL, from its saved state.
    await expect.poll(() => chainAnswers(chain.rpcUrl), { timeout: 30_000, interval: 100 }).toBe(true)
    expect(anvilPid(31337)).not.toBe(pid)
    expect((await balance('local-1')).body.data.balance).toBe(balanceBefore)
    expect((await rpc(31337, 'eth_call', tokenCall)).body.result).toBe(tokensBefore)
    expect((await rpc(31337, 'eth_getTransactionCount', [wallet.address, 'latest'])).body.result).toBe('0x1')
    // The refused send spent no nonce: the next one takes 1, and the one after 2.
    const again = await send('local-1')
    expect(again.status).toBe(200)
    expect(again.body.data.txReceipt).toMatchObject({ nonce: 1, status: 'success' })
    expect((await send('local-1')).body.data.txReceipt).toMatchObject({ nonce: 2, status: 'success' })
  },
  60_000,
)
