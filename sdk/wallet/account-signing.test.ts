import { beforeEach, expect, test } from 'vitest'
import { toContext } from '../config.ts'
import { onlyRequest, openRecorder } from '../recorder.fixture.ts'
import { createTokenHolder } from '../config.ts'
import { signAccountMessage, signAccountTypedData, signUserOperation } from './account-signing.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

const rows = [
  ['sign-user-operation', signUserOperation, { userOpId: 'op-1', stepUpProof: 'sup_x' }],
  ['sign-account-message', signAccountMessage, { accountId: 'acc-1', message: '0x6869' }],
  ['sign-account-typed-data', signAccountTypedData, { accountId: 'acc-1', typedData: '{"types":{}}' }],
] as const

test.each(rows)('%s: POST /api/v2/wallet/<path> with the held wallet token, the params as the body', async (path, call, params) => {
  await rec.rules({ method: 'POST', path: `/api/v2/wallet/${path}`, body: { signature: '0xsig' } })
  const ctx = toContext({ appId: 'demo', baseUrls: rec.baseUrls, tokens: createTokenHolder({ walletToken: 'wt-held' }) })
  expect(await (call as (c: typeof ctx, p: object) => Promise<unknown>)(ctx, params)).toEqual({ signature: '0xsig' })
  const req = await onlyRequest(rec)
  expect(req.path).toBe(`/api/v2/wallet/${path}`)
  expect(req.headers.authorization).toBe('Bearer wt-held')
  expect(req.headers['x-app-id']).toBe('demo')
  expect(JSON.parse(req.body)).toEqual(params)
})
