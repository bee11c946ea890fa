import { RpcResponse } from 'ox'
import { beforeEach, expect, test } from 'vitest'
import { SdkError, createChainClient } from './index.ts'
import { openRecorder } from './recorder.fixture.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

test('JSON-RPC 2.0 POST with method, params ([] when absent) and an incrementing id', async () => {
  await rec.rules({ method: 'POST', path: '/rpc/a', rpcResult: '0x7a69' })
  const chain = createChainClient({ rpcUrls: [`${rec.base}/rpc/a`] })
  expect(await chain.request({ method: 'eth_chainId' })).toBe('0x7a69')
  expect(await chain.request({ method: 'eth_getBalance', params: ['0xA', 'latest'] })).toBe('0x7a69')
  const [first, second] = (await rec.requests()).map((r) => JSON.parse(r.body))
  expect(first).toEqual({ jsonrpc: '2.0', id: expect.any(Number), method: 'eth_chainId', params: [] })
  expect(second).toEqual({ jsonrpc: '2.0', id: expect.any(Number), method: 'eth_getBalance', params: ['0xA', 'latest'] })
  // viem numbers requests with one counter per page, not per client: incrementing, not from 1.
  expect(second.id).toBeGreaterThan(first.id)
  expect((await rec.requests())[0]!.headers['content-type']).toBe('application/json')
})

test('the first URL dead, the second non-OK: the third answers', async () => {
  await rec.rules({ path: '/rpc/bad', status: 502, raw: 'Bad Gateway' }, { path: '/rpc/good', rpcResult: '0x10' })
  const dead = await rec.deadUrl()
  const chain = createChainClient({ rpcUrls: [`${dead}/rpc`, `${rec.base}/rpc/bad`, `${rec.base}/rpc/good`] })
  expect(await chain.request({ method: 'eth_blockNumber' })).toBe('0x10')
  expect((await rec.requests()).map((r) => r.path)).toEqual(['/rpc/bad', '/rpc/good'])
})

test('all failing: All RPC URLs failed, with what each URL did', async () => {
  await rec.rules({ path: '/rpc/bad', status: 500, raw: 'x' })
  const dead = await rec.deadUrl()
  const chain = createChainClient({ rpcUrls: [`${dead}/rpc`, `${rec.base}/rpc/bad`] })
  const error = (await chain.request({ method: 'eth_blockNumber' }).catch((e) => e)) as SdkError
  expect(error).toBeInstanceOf(SdkError)
  expect(error.message).toBe('All RPC URLs failed')
  expect(error.details).toMatchObject([{ url: `${dead}/rpc` }, { url: `${rec.base}/rpc/bad`, status: 500 }])
})

test('a JSON-RPC error is an answer: thrown with its code, no further URL tried', async () => {
  await rec.rules({ path: '/rpc/a', rpcError: { code: -32602, message: 'bad params' } }, { path: '/rpc/b', rpcResult: '0x1' })
  const chain = createChainClient({ rpcUrls: [`${rec.base}/rpc/a`, `${rec.base}/rpc/b`] })
  const error = (await chain.request({ method: 'eth_call', params: [] }).catch((e) => e)) as RpcResponse.InvalidParamsError
  expect(error).toBeInstanceOf(RpcResponse.InvalidParamsError)
  expect(error.code).toBe(-32602)
  expect((await rec.requests()).map((r) => r.path)).toEqual(['/rpc/a'])
})

test.each([
  ['without a reason: ABORT_ERR', undefined, { code: 'ABORT_ERR' }],
  ['with a reason of its own: that reason', Object.assign(new Error('user left'), { code: 'LEFT' }), { message: 'user left', code: 'LEFT' }],
])('an abort stops the fallback, %s', async (_, reason, expected) => {
  await rec.rules({ path: '/rpc/slow', delayMs: 3000, rpcResult: '0x1' }, { path: '/rpc/b', rpcResult: '0x2' })
  const chain = createChainClient({ rpcUrls: [`${rec.base}/rpc/slow`, `${rec.base}/rpc/b`] })
  const controller = new AbortController()
  const pending = chain.request({ method: 'eth_blockNumber' }, { signal: controller.signal })
  setTimeout(() => controller.abort(reason), 50)
  await expect(pending).rejects.toMatchObject(expected)
  expect((await rec.requests()).map((r) => r.path)).toEqual(['/rpc/slow'])
})

test('a JSON-RPC error in a non-OK answer is a failed URL: the next one answers', async () => {
  await rec.rules({ path: '/rpc/a', status: 503, rpcError: { code: -32005, message: 'rate limited' } }, { path: '/rpc/b', rpcResult: '0x2' })
  const chain = createChainClient({ rpcUrls: [`${rec.base}/rpc/a`, `${rec.base}/rpc/b`] })
  expect(await chain.request({ method: 'eth_blockNumber' })).toBe('0x2')
  expect((await rec.requests()).map((r) => r.path)).toEqual(['/rpc/a', '/rpc/b'])
})

test('an OK answer that is not JSON is a failed URL too', async () => {
  await rec.rules({ path: '/rpc/a', raw: '<html>' }, { path: '/rpc/b', rpcResult: '0x3' })
  const chain = createChainClient({ rpcUrls: [`${rec.base}/rpc/a`, `${rec.base}/rpc/b`] })
  expect(await chain.request({ method: 'eth_blockNumber' })).toBe('0x3')
})

test('a code ox has no class for (3, a revert with data) keeps its code, message and data', async () => {
  await rec.rules({ path: '/rpc/a', rpcError: { code: 3, message: 'execution reverted', data: '0x08c379a0' } })
  const chain = createChainClient({ rpcUrls: [`${rec.base}/rpc/a`] })
  const error = (await chain.request({ method: 'eth_call', params: [] }).catch((e) => e)) as RpcResponse.BaseError
  expect(error).toBeInstanceOf(RpcResponse.BaseError)
  expect([error.code, error.message, error.data]).toEqual([3, 'execution reverted', '0x08c379a0'])
})

test('the fetch option carries every attempt', async () => {
  await rec.rules({ path: '/rpc/bad', status: 500, raw: 'x' }, { path: '/rpc/good', rpcResult: '0x4' })
  const seen: string[] = []
  const chain = createChainClient({
    rpcUrls: [`${rec.base}/rpc/bad`, `${rec.base}/rpc/good`],
    fetch: (input, init) => {
      seen.push(String(input).slice(rec.base.length))
      return fetch(input, init)
    },
  })
  expect(await chain.request({ method: 'eth_blockNumber' })).toBe('0x4')
  expect(seen).toEqual(['/rpc/bad', '/rpc/good'])
})

test('with a timeout, a slow URL counts as failed and the next one answers', async () => {
  await rec.rules({ path: '/rpc/slow', delayMs: 3000, rpcResult: '0x1' }, { path: '/rpc/b', rpcResult: '0x2' })
  const chain = createChainClient({ rpcUrls: [`${rec.base}/rpc/slow`, `${rec.base}/rpc/b`], timeout: 100 })
  const started = Date.now()
  expect(await chain.request({ method: 'eth_blockNumber' })).toBe('0x2')
  expect(Date.now() - started).toBeLessThan(2000)
})

test('no URL at all: All RPC URLs failed', async () => {
  const error = (await createChainClient({ rpcUrls: [] })
    .request({ method: 'eth_chainId' })
    .catch((e) => e)) as SdkError
  expect([error.message, error.code, error.details]).toEqual(['All RPC URLs failed', 'ALL_RPC_URLS_FAILED', []])
})
