// The sandbox's chain proxy (/rpc/:chainId) and its loopback-only HTTP server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestClient, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

let sandbox: TestSandbox
const signTransaction = (tx: Parameters<ReturnType<typeof privateKeyToAccount>['signTransaction']>[0]) =>
  privateKeyToAccount(generatePrivateKey()).signTransaction(tx)

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

describe('rpc proxy and misc', () => {
  const rpc = (body: unknown, chainId = 31337) =>
    fetch(`${sandbox.url}/rpc/${chainId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://anywhere.example' },
      body: JSON.stringify(body),
    })

  test('forwards JSON-RPC to anvil with open CORS', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: '0x7a69' })
    const batch = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'net_version', params: [] },
    ])
    expect(await batch.json()).toMatchObject([
      { id: 1, result: '0x7a69' },
      { id: 2, result: '31337' },
    ])
    const second = await rpc({ jsonrpc: '2.0', id: 8, method: 'eth_chainId', params: [] }, 31338)
    expect(await second.json()).toEqual({ jsonrpc: '2.0', id: 8, result: '0x7a6a' })
  })

  test('refuses admin and unlocked-account methods, unknown chains and bad JSON', async () => {
    const refused = ['anvil_setBalance', 'anvil_impersonateAccount', 'evm_mine', 'hardhat_setBalance', 'debug_traceCall', 'personal_sign']
    for (const method of [...refused, 'txpool_content', 'eth_sendTransaction', 'eth_sign', 'eth_sendTransactionSync', 'eth_subscribe']) {
      const body = await (await rpc({ jsonrpc: '2.0', id: 1, method, params: [] })).json()
      expect(body.error.code).toBe(-32601)
    }
    expect((await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, 1)).status).toBe(404)
    const parse = await fetch(`${sandbox.url}/rpc/31337`, { method: 'POST', body: '{nope' })
    expect((await parse.json()).error.code).toBe(-32700)
  })

  test('an unsigned transaction from another origin (a text/plain "simple" POST, no preflight) moves nothing, alone or in a batch', async () => {
    const balance = async () =>
      (await (await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [sandbox.faucetAddress, 'latest'] })).json()).result
    const before = await balance()
    expect(BigInt(before)).toBeGreaterThan(0n)
    const steal = {
      jsonrpc: '2.0',
      id: 2,
      method: 'eth_sendUnsignedTransaction',
      params: [{ from: sandbox.faucetAddress, to: '0x000000000000000000000000000000000000dEaD', value: '0xde0b6b3a7640000' }],
    }
    for (const chainId of [31337, 31338]) {
      const simple = await fetch(`${sandbox.url}/rpc/${chainId}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
        body: JSON.stringify(steal),
      })
      expect(await simple.json()).toMatchObject({ id: 2, error: { code: -32601 } })
      const batch = await (await rpc([{ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }, steal], chainId)).json()
      expect(batch).toMatchObject([
        { id: 1, error: { code: -32601 } },
        { id: 2, error: { code: -32601 } },
      ])
    }
    expect(await balance()).toBe(before)
    const dead = await (await rpc({ jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: ['0x000000000000000000000000000000000000dEaD', 'latest'] })).json()
    expect(dead.result).toBe('0x0')
  })

  test('a read cannot pin the chain: gas above the block gas limit is refused, and no notification or flood holds a request', async () => {
    const loop = '0x5b600056' // JUMPDEST PUSH1 0 JUMP: runs until the gas is spent
    for (const method of ['eth_call', 'eth_estimateGas', 'eth_createAccessList']) {
      const body = await (await rpc({ jsonrpc: '2.0', id: 1, method, params: [{ data: loop, gas: '0xffffffffffff' }, 'latest'] })).json()
      expect(body.error).toMatchObject({ code: -32602, message: expect.stringContaining('gas') })
    }
    // At the cap, the loop runs out of gas at once and the chain still mines.
    const capped = await (await rpc({ jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ data: loop, gas: '0x1c9c380' }, 'latest'] })).json()
    expect(capped.error).toBeDefined()
    const notification = await rpc({ jsonrpc: '2.0', method: 'eth_chainId', params: [] })
    expect((await notification.json()).error).toMatchObject({ code: -32600 })
    const flood = await rpc(Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] })))
    expect((await flood.json()).error).toMatchObject({ code: -32600, message: expect.stringContaining('100') })
    const admin = createTestClient({ mode: 'anvil', transport: http(sandbox.chains[0]!.rpcUrl) })
    await admin.mine({ blocks: 1 })
  })

  test('no override lifts the gas cap: block overrides, state overrides with code, and a second spelling of gas are refused or capped, and answer promptly', async () => {
    const loop = '0x5b600056' // JUMPDEST PUSH1 0 JUMP: runs until the gas is spent
    const huge = '0xffffffffffff'
    const looper = '0x00000000000000000000000000000000000100ee'
    const attempts: [string, unknown[]][] = [
      // eth_call(tx, block, stateOverrides, blockOverrides): the block's gasLimit is a call's default gas.
      ['eth_call', [{ data: loop }, 'latest', {}, { gasLimit: huge }]],
      ['eth_call', [{ data: loop }, 'latest', null, { gasLimit: huge }]],
      ['eth_call', [{ data: loop, gas: '0x1c9c380' }, 'latest', {}, { gasLimit: huge }]],
      ['eth_call', [{ data: loop }, { blockNumber: 'latest' }, {}, { gasLimit: '340282366920938463463374607431768211455' }]],
      ['eth_estimateGas', [{ data: loop }, 'latest', {}, { gasLimit: huge }]],
      // A looping contract put in place by a state override, called with the block's gas lifted.
      ['eth_call', [{ to: looper }, 'latest', { [looper]: { code: loop } }, { gasLimit: huge }]],
      ['eth_call', [{ data: loop, gasLimit: huge }, 'latest']],
    ]
    for (const [method, params] of attempts) {
      const started = Date.now()
      const body = await (await rpc({ jsonrpc: '2.0', id: 1, method, params })).json()
      expect(Date.now() - started, `${method} ${JSON.stringify(params)}`).toBeLessThan(3_000)
      expect(body.error, `${method} ${JSON.stringify(params)}`).toMatchObject({ code: -32602, message: expect.stringMatching(/gas/i) })
    }
    // Code put in place by a state override is bounded like deployed code (EIP-170), and overrides take only the known fields.
    const big = await (
      await rpc({ jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ to: looper }, 'latest', { [looper]: { code: `0x${'5b'.repeat(24_577)}` } }] })
    ).json()
    expect(big.error).toMatchObject({ code: -32602, message: expect.stringContaining('code') })
    const odd = await (
      await rpc({ jsonrpc: '2.0', id: 3, method: 'eth_call', params: [{ to: looper }, 'latest', { [looper]: { movePrecompileToAddress: looper } }] })
    ).json()
    expect(odd.error).toMatchObject({ code: -32602 })
    // Not on the read allowlist: simulations of whole blocks are not forwarded at all.
    const simulate = await (await rpc({ jsonrpc: '2.0', id: 4, method: 'eth_simulateV1', params: [{ blockStateCalls: [] }, 'latest'] })).json()
    expect(simulate.error).toMatchObject({ code: -32601 })
    // Within the cap, overrides still work: a state override's code runs, and the block's gasLimit at the cap is taken.
    const fine = await (
      await rpc({
        jsonrpc: '2.0',
        id: 5,
        method: 'eth_call',
        params: [{ to: looper }, 'latest', { [looper]: { code: '0x602a60005260206000f3' } }, { gasLimit: '0x1c9c380' }],
      })
    ).json()
    expect(fine.result).toBe(`0x${'2a'.padStart(64, '0')}`)
    // A batch cannot add up to more than a bounded amount of simulated gas.
    const many = await (
      await rpc(Array.from({ length: 40 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_call', params: [{ data: loop }, 'latest'] })))
    ).json()
    expect(many[0].error).toMatchObject({ code: -32602, message: expect.stringMatching(/gas/i) })
  })

  test('the read allowlist and signed raw transactions are forwarded', async () => {
    const reads = await (
      await rpc([
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'eth_getLogs',
          params: [{ fromBlock: '0x0', toBlock: 'latest', address: '0x000000000000000000000000000000000000dEaD' }],
        },
        { jsonrpc: '2.0', id: 3, method: 'eth_gasPrice', params: [] },
        { jsonrpc: '2.0', id: 4, method: 'web3_clientVersion', params: [] },
      ])
    ).json()
    expect(reads).toMatchObject([
      { id: 1, result: expect.stringMatching(/^0x/) },
      { id: 2, result: [] },
      { id: 3, result: expect.stringMatching(/^0x/) },
      { id: 4, result: expect.any(String) },
    ])
    // A transaction signed by a fresh key reaches the chain, which judges it (no funds here).
    const raw = await signTransaction({
      chainId: 31337,
      to: '0x000000000000000000000000000000000000dEaD',
      value: 1n,
      gas: 21000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
      nonce: 0,
    })
    const sent = await (await rpc({ jsonrpc: '2.0', id: 5, method: 'eth_sendRawTransaction', params: [raw] })).json()
    expect(sent.error?.code).not.toBe(-32601)
    expect(sent.error?.message).toMatch(/fund/i)
  })

  test('health, unknown routes and the inbox page', async () => {
    expect(await (await fetch(`${sandbox.url}/health`)).json()).toEqual({ ok: true })
    const missing = await fetch(`${sandbox.url}/api/v2/nope`, { method: 'POST', headers: { 'x-app-id': 'demo', 'x-client-secret': 'demo-client-secret' } })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ status: 404, message: 'Not found', data: null })
    const page = await fetch(`${sandbox.url}/dev/inbox`)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain('<meta http-equiv="refresh"')
  })

  test('binds loopback only and answers on localhost', async () => {
    expect(sandbox.url).toMatch(/^http:\/\/localhost:\d+$/)
    const viaIp = await fetch(`http://127.0.0.1:${sandbox.port}/health`)
    expect(viaIp.status).toBe(200)
  })
})
