import { beforeEach, describe, expect, test } from 'vitest'
import { SdkError } from './errors.ts'
import { createWalletClient } from './index.ts'
import { createTokenHolder } from './config.ts'
import { openRecorder } from './recorder.fixture.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

const address = '/api/v2/wallet/address'
const refresh = '/api/v2/wallet/refresh'
const expired = { path: address, when: { authorization: 'Bearer old' }, status: 401, message: 'Token expired' }
const fresh = { path: address, when: { authorization: 'Bearer new' }, body: { address: '0xA' } }

const paths = async () => (await rec.requests()).map((r) => `${r.path} ${r.headers.authorization ?? ''}`.trim())

describe('token refresh', () => {
  test('a 401 with a refresh token held refreshes once and repeats the call', async () => {
    await rec.rules(expired, fresh, { path: refresh, body: { walletToken: 'new', refreshToken: 'r2' } })
    const tokens = createTokenHolder({ walletToken: 'old', refreshToken: 'r1', address: '0xA' })
    const wallet = createWalletClient({ baseUrls: rec.baseUrls, tokens })
    expect(await wallet.address({ network: 'local-1' })).toEqual({ address: '0xA' })
    expect(await paths()).toEqual([`${address} Bearer old`, refresh, `${address} Bearer new`])
    expect(JSON.parse((await rec.requests())[1]!.body)).toEqual({ refreshToken: 'r1' })
    expect(tokens.get()).toEqual({ walletToken: 'new', refreshToken: 'r2', address: '0xA' })
  })

  test('concurrent 401s share one refresh', async () => {
    await rec.rules(expired, fresh, { path: refresh, delayMs: 150, body: { walletToken: 'new', refreshToken: 'r2' } })
    const tokens = createTokenHolder({ walletToken: 'old', refreshToken: 'r1' })
    const wallet = createWalletClient({ baseUrls: rec.baseUrls, tokens })
    const results = await Promise.all([1, 2, 3, 4].map(() => wallet.address({ network: 'local-1' })))
    expect(results).toEqual(Array(4).fill({ address: '0xA' }))
    const seen = await paths()
    expect(seen.filter((p) => p === refresh)).toHaveLength(1)
    expect(seen.filter((p) => p === `${address} Bearer old`)).toHaveLength(4)
    expect(seen.filter((p) => p === `${address} Bearer new`)).toHaveLength(4)
  })

  test('a 401 arriving after the shared refresh finished reuses its pair', async () => {
    await rec.rules({ ...expired, times: 1 }, { ...expired, delayMs: 300 }, fresh, { path: refresh, body: { walletToken: 'new', refreshToken: 'r2' } })
    const wallet = createWalletClient({ baseUrls: rec.baseUrls, tokens: createTokenHolder({ walletToken: 'old', refreshToken: 'r1' }) })
    await Promise.all([wallet.address({ network: 'a' }), wallet.address({ network: 'b' })])
    expect((await paths()).filter((p) => p === refresh)).toHaveLength(1)
  })

  test('refresh failure: Failed to refresh token, and the session is cleared', async () => {
    await rec.rules(expired, { path: refresh, status: 401, message: 'Refresh token revoked' })
    const tokens = createTokenHolder({ walletToken: 'old', refreshToken: 'r1', address: '0xA', rampClientSecret: 'keep' })
    const wallet = createWalletClient({ baseUrls: rec.baseUrls, tokens })
    const error = (await wallet.address({ network: 'local-1' }).catch((e) => e)) as SdkError
    expect(error).toBeInstanceOf(SdkError)
    expect(error.message).toBe('Failed to refresh token')
    expect(error.code).toBe('TOKEN_REFRESH_FAILED')
    expect(error.details).toEqual({ status: 401, message: 'Refresh token revoked', data: null })
    expect(tokens.get()).toEqual({ rampClientSecret: 'keep' })
  })

  test('still 401 after the refresh: the error comes back, no second refresh', async () => {
    await rec.rules({ path: address, status: 401, message: 'nope' }, { path: refresh, body: { walletToken: 'new', refreshToken: 'r2' } })
    const wallet = createWalletClient({ baseUrls: rec.baseUrls, tokens: createTokenHolder({ walletToken: 'old', refreshToken: 'r1' }) })
    const error = (await wallet.address({ network: 'x' }).catch((e) => e)) as SdkError
    expect([error.message, error.code]).toEqual(['nope', '401'])
    expect(await paths()).toEqual([`${address} Bearer old`, refresh, `${address} Bearer new`])
  })

  test('a 401 without any refresh token is returned as is', async () => {
    await rec.rules(expired)
    const wallet = createWalletClient({ baseUrls: rec.baseUrls, tokens: createTokenHolder({ walletToken: 'old' }) })
    const error = (await wallet.address({ network: 'x' }).catch((e) => e)) as SdkError
    expect([error.message, error.code]).toEqual(['Token expired', '401'])
    expect(await rec.requests()).toHaveLength(1)
  })

  test('a refresh token passed with the call: refreshed after it, new pair returned with the result', async () => {
    await rec.rules(
      { path: '/api/v2/wallet/send-transaction', body: { txReceipt: { hash: '0xh' } } },
      { path: refresh, body: { walletToken: 'w2', refreshToken: 'r2' } },
    )
    const tokens = createTokenHolder({ walletToken: 'w1', refreshToken: 'r1' })
    const wallet = createWalletClient({ baseUrls: rec.baseUrls, tokens })
    const result = await wallet.sendTransaction({
      network: 'local-1',
      transaction: { from: '0xF', to: '0xT', data: '0x' },
      walletToken: 'w1',
      refreshToken: 'r1',
    })
    expect(result).toEqual({ txReceipt: { hash: '0xh' }, walletToken: 'w2', refreshToken: 'r2' })
    expect(await paths()).toEqual(['/api/v2/wallet/send-transaction Bearer w1', refresh])
    expect(JSON.parse((await rec.requests())[0]!.body)).not.toHaveProperty('refreshToken')
    expect(tokens.get()).toEqual({ walletToken: 'w2', refreshToken: 'r2' })
  })

  test('a refresh token passed with the call and a 401: one refresh serves both', async () => {
    await rec.rules(expired, fresh, { path: refresh, body: { walletToken: 'new', refreshToken: 'r2' } })
    const wallet = createWalletClient({ baseUrls: rec.baseUrls })
    const result = await wallet.address({ network: 'x', walletToken: 'old', refreshToken: 'r1' })
    expect(result).toEqual({ address: '0xA', walletToken: 'new', refreshToken: 'r2' })
    expect((await paths()).filter((p) => p === refresh)).toHaveLength(1)
  })

  test("explicit tokens of another user never overwrite the holder's session", async () => {
    await rec.rules(fresh, { path: refresh, body: { walletToken: 'other-2', refreshToken: 'other-r2' } })
    const tokens = createTokenHolder({ walletToken: 'mine', refreshToken: 'mine-r' })
    const wallet = createWalletClient({ baseUrls: rec.baseUrls, tokens })
    await wallet.address({ network: 'x', walletToken: 'new', refreshToken: 'other-r1' })
    expect(tokens.get()).toEqual({ walletToken: 'mine', refreshToken: 'mine-r' })
  })
})

describe('coordinateRefresh', () => {
  test('wraps the refresh: a pair another holder already got is used without spending the token again', async () => {
    await rec.rules(expired, fresh, { path: refresh, body: { walletToken: 'never', refreshToken: 'never' } })
    const tokens = createTokenHolder({ walletToken: 'old', refreshToken: 'r1', address: '0xA' })
    const spent: string[] = []
    const wallet = createWalletClient({
      baseUrls: rec.baseUrls,
      tokens,
      coordinateRefresh: async (token) => {
        spent.push(token)
        return { walletToken: 'new', refreshToken: 'r2' }
      },
    })
    expect(await wallet.address({ network: 'local-1' })).toEqual({ address: '0xA' })
    expect(spent).toEqual(['r1'])
    expect(await paths()).toEqual([`${address} Bearer old`, `${address} Bearer new`])
    expect(tokens.get()).toEqual({ walletToken: 'new', refreshToken: 'r2', address: '0xA' })
  })

  test('or runs the real refresh, e.g. under a lock', async () => {
    await rec.rules(expired, fresh, { path: refresh, body: { walletToken: 'new', refreshToken: 'r2' } })
    const order: string[] = []
    const wallet = createWalletClient({
      baseUrls: rec.baseUrls,
      tokens: createTokenHolder({ walletToken: 'old', refreshToken: 'r1' }),
      coordinateRefresh: async (_, run) => {
        order.push('lock')
        const pair = await run()
        order.push('unlock')
        return pair
      },
    })
    expect(await wallet.address({ network: 'local-1' })).toEqual({ address: '0xA' })
    expect(order).toEqual(['lock', 'unlock'])
    expect(await paths()).toEqual([`${address} Bearer old`, refresh, `${address} Bearer new`])
  })
})
