import { beforeEach, describe, expect, test } from 'vitest'
import { resolveContext } from '../config.ts'
import { SdkError } from '../errors.ts'
import { createTokenHolder } from '../config.ts'
import { openRecorder } from '../recorder.fixture.ts'
import { recoverWallet } from './recover.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

const recover = '/api/v2/account/recover'
const refresh = '/api/v2/wallet/refresh'
const secret0 = `0x${'ab'.repeat(32)}`
const answer = { walletToken: 'w2', refreshToken: 'r2', address: [{ network: 'evm', address: '0xA' }] }
const held = () => createTokenHolder({ walletToken: 'w1', refreshToken: 'r1', address: '0xa' })
const context = (tokens = held()) => resolveContext({ appId: 'demo', baseUrls: rec.baseUrls, tokens })
const seen = async () => (await rec.requests()).map((r) => `${r.path} ${r.headers.authorization ?? ''}`.trim())

describe('recoverWallet', () => {
  test('sends secret0 form-encoded with the held wallet token; the holder keeps the new session', async () => {
    await rec.rules({ path: recover, body: answer })
    const ctx = context()
    expect(await recoverWallet(ctx, { secret0 })).toEqual(answer)
    const [request] = await rec.requests()
    expect(request?.headers.authorization).toBe('Bearer w1')
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({ secret0 })
    expect(ctx.tokens.get()).toEqual({ walletToken: 'w2', refreshToken: 'r2', address: '0xA' })
  })

  test('a fresh login: its access token is the bearer', async () => {
    await rec.rules({ path: recover, body: answer })
    const ctx = context(createTokenHolder())
    await recoverWallet(ctx, { secret0, accessToken: 'at' })
    expect(await seen()).toEqual([`${recover} Bearer at`])
    expect(ctx.tokens.get().walletToken).toBe('w2')
  })

  test('an expired wallet token is refreshed once and the call repeated', async () => {
    await rec.rules(
      { path: recover, when: { authorization: 'Bearer w1' }, status: 401, message: 'Token expired' },
      { path: refresh, body: { walletToken: 'w1b', refreshToken: 'r1b' } },
      { path: recover, when: { authorization: 'Bearer w1b' }, body: answer },
    )
    const ctx = context()
    await recoverWallet(ctx, { secret0 })
    expect(await seen()).toEqual([`${recover} Bearer w1`, refresh, `${recover} Bearer w1b`])
    expect(ctx.tokens.get()).toEqual({ walletToken: 'w2', refreshToken: 'r2', address: '0xA' })
  })

  test("the service's refusal comes out as its message; the held session stays as it was", async () => {
    await rec.rules({ path: recover, status: 400, message: 'Recovery secret does not match this wallet' })
    const ctx = context()
    const error = await recoverWallet(ctx, { secret0 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SdkError)
    expect(error).toMatchObject({ code: '400', message: 'Recovery secret does not match this wallet' })
    expect(ctx.tokens.get()).toEqual(held().get())
  })

  test('no answer (the network): NO_RESPONSE, the held session stays as it was', async () => {
    const ctx = resolveContext({ appId: 'demo', baseUrls: { ...rec.baseUrls, wallet: await rec.deadUrl() }, tokens: held() })
    await expect(recoverWallet(ctx, { secret0 })).rejects.toMatchObject({ code: 'NO_RESPONSE' })
    expect(ctx.tokens.get()).toEqual(held().get())
  })

  test('an answer without a session, or with another wallet than the held one, is not taken', async () => {
    await rec.rules({ path: recover, when: { authorization: 'Bearer w1' }, body: { ...answer, address: [{ network: 'evm', address: '0xB' }] } })
    const ctx = context()
    await expect(recoverWallet(ctx, { secret0 })).rejects.toThrow('another wallet')
    expect(ctx.tokens.get()).toEqual(held().get())
    await rec.reset()
    await rec.rules({ path: recover, body: { address: answer.address } })
    await expect(recoverWallet(ctx, { secret0 })).rejects.toThrow('no session')
    expect(ctx.tokens.get()).toEqual(held().get())
  })
  test('a session handed for another wallet is ended at once, not left alive unheld; the holder keeps its own', async () => {
    await rec.rules({ path: recover, body: { ...answer, address: [{ network: 'evm', address: '0xB' }] } }, { path: '/api/v2/wallet/logout', body: null })
    const ctx = context()
    await expect(recoverWallet(ctx, { secret0 })).rejects.toThrow('another wallet')
    const requests = await rec.requests()
    expect(requests.map((r) => `${r.path} ${r.headers.authorization ?? ''}`.trim())).toEqual([`${recover} Bearer w1`, '/api/v2/wallet/logout Bearer w2'])
    expect(JSON.parse(requests[1]!.body)).toEqual({ refreshToken: 'r2' })
    expect(ctx.tokens.get()).toEqual(held().get())
  })
})
