import { type ChildProcess, spawn } from 'node:child_process'
import { RpcResponse } from 'ox'
import { createPublicClient, custom } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { anvilPath } from '../sandbox/infra/anvil/anvil-path.ts'
import { freePort } from '../sandbox/infra/ports.ts'
import { createChainClient } from './chain.ts'

// A real chain behind the fallback: anvil from the npm package, found the sandbox's way; Node only.
const anvil = anvilPath()

let child: ChildProcess
let rpcUrl: string
let deadUrl: string

beforeAll(async () => {
  const port = await freePort()
  deadUrl = `http://127.0.0.1:${await freePort()}`
  rpcUrl = `http://127.0.0.1:${port}`
  child = spawn(anvil, ['--host', '127.0.0.1', '--port', String(port), '--chain-id', '31337', '--silent'], { stdio: 'ignore' })
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(rpcUrl, { method: 'POST', body: '{"jsonrpc":"2.0","id":0,"method":"eth_chainId","params":[]}' })
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('anvil did not start')
})

afterAll(() => {
  child?.kill()
})

test('first URL dead: the request reaches anvil through the second', async () => {
  const chain = createChainClient({ rpcUrls: [deadUrl, rpcUrl] })
  expect(await chain.request({ method: 'eth_chainId' })).toBe('0x7a69')
  const [first] = await chain.request<string[]>({ method: 'eth_accounts' })
  expect(await chain.request({ method: 'eth_getBalance', params: [first, 'latest'] })).toBe('0x21e19e0c9bab2400000')
})

test("anvil's error answers keep their code: 3 with the revert data, -32601 for an unknown method", async () => {
  const chain = createChainClient({ rpcUrls: [deadUrl, rpcUrl] })
  // Init code that reverts with one word of data: PUSH1 1 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 REVERT.
  const revert = (await chain.request({ method: 'eth_call', params: [{ data: '0x600160005260206000fd' }, 'latest'] }).catch((e) => e)) as RpcResponse.BaseError
  expect(revert).toBeInstanceOf(RpcResponse.BaseError)
  expect([revert.code, revert.data]).toEqual([3, `0x${'1'.padStart(64, '0')}`])
  const unknown = await chain.request({ method: 'eth_nope' }).catch((e) => e)
  expect(unknown).toBeInstanceOf(RpcResponse.MethodNotFoundError)
})

test('the chain client is an EIP-1193 request function: viem reads through it', async () => {
  const client = createPublicClient({ transport: custom(createChainClient({ rpcUrls: [deadUrl, rpcUrl] })) })
  expect(await client.getChainId()).toBe(31337)
  expect(typeof (await client.getBlockNumber())).toBe('bigint')
})
