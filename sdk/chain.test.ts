import { RpcResponse } from 'ox'
import { beforeEach, expect, test } from 'vitest'
import { SdkError, createChainClient } from './index.ts'
import { openRecorder } from './test/recorder.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

test('JSON-RPC 2.0 POST with method, params and an incrementing id', async () => {
  await rec.rules({ method: 'POST', path: '/rpc/a', rpcResult: '0x7a69' })
  const chain = createChainClient({ rpcUrls: [`${rec.base}/rpc/a`] })
  expect(await chain.request({ method: 'eth_chainId' })).toBe('0x7a69')
  expect(await chain.request({ method: 'eth_getBalance', params: ['0xA', 'latest'] })).toBe('0x7a69')
  const bodies = (await rec.requests()).map((r) => JSON.parse(r.body))
  expect(bodies).toEqual([
    { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
    { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: ['0xA', 'latest'] },
  ])
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

test('an abort stops the fallback', async () => {
  await rec.rules({ path: '/rpc/slow', delayMs: 3000, rpcResult: '0x1' }, { path: '/rpc/b', rpcResult: '0x2' })
  const chain = createChainClient({ rpcUrls: [`${rec.base}/rpc/slow`, `${rec.base}/rpc/b`] })
  const controller = new AbortController()
  const pending = chain.request({ method: 'eth_blockNumber' }, { signal: controller.signal })
  setTimeout(() => controller.abort(), 50)
  await expect(pending).rejects.toMatchObject({ code: 'ABORT_ERR' })
  expect((await rec.requests()).map((r) => r.path)).toEqual(['/rpc/slow'])
})
