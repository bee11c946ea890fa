import { beforeEach, describe, expect, test } from 'vitest'
import { createAccountClient, createClient } from '../index.ts'
import { createTokenHolder } from '../config.ts'
import { onlyRequest, openRecorder } from '../recorder.fixture.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

describe('account calls', () => {
  test('create: bearer access token, body expireDate and rampable, keeps the new session', async () => {
    const answer = { walletToken: 'wt', refreshToken: 'rt', secret0: 'secret', address: [{ network: 'evm', address: '0xA' }] }
    await rec.rules({ method: 'POST', path: '/api/v2/account/create', body: answer })
    const client = createClient({ appId: 'demo', baseUrls: rec.baseUrls })
    expect(await client.account.create({ accessToken: 'at', expireDate: '2030-01-01', rampable: true })).toEqual(answer)
    const req = await onlyRequest(rec)
    expect(req.headers.authorization).toBe('Bearer at')
    expect(JSON.parse(req.body)).toEqual({ expireDate: '2030-01-01', rampable: true })
    expect(client.tokens.get()).toEqual({ walletToken: 'wt', refreshToken: 'rt', address: '0xA' })
  })

  test('recover sends form data: url-encoded from a record, multipart from FormData', async () => {
    await rec.rules({ path: '/api/v2/account/recover', body: { walletToken: 'w2' } })
    const account = createAccountClient({ baseUrls: rec.baseUrls })
    await account.recover({ data: { secret0: 's e', email: 'a@b.co' }, accessToken: 'at' })
    const form = new FormData()
    form.set('secret0', 'multi')
    await account.recover({ data: form, accessToken: 'at' })
    const [first, second] = await rec.requests()
    expect(first?.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(new URLSearchParams(first?.body).get('secret0')).toBe('s e')
    expect(second?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    expect(second?.body).toContain('name="secret0"')
    expect(second?.body).toContain('multi')
    expect(second?.headers.authorization).toBe('Bearer at')
  })

  test('rampable/create: bearer wallet token, keeps the ramp token', async () => {
    await rec.rules({ path: '/api/v2/account/rampable/create', body: { rampableAccessToken: 'ra' } })
    const tokens = createTokenHolder({ walletToken: 'wt' })
    const account = createAccountClient({ baseUrls: rec.baseUrls, tokens })
    expect(await account.createRampable()).toEqual({ rampableAccessToken: 'ra' })
    expect((await onlyRequest(rec)).headers.authorization).toBe('Bearer wt')
    expect(tokens.get().rampAccessToken).toBe('ra')
  })

  test('organization: GET with the client secret', async () => {
    await rec.rules({ method: 'GET', path: '/api/v2/organization', body: { isRampableEnabled: true, rampableClientSecret: 'rcs' } })
    const account = createAccountClient({ clientSecret: 'cs', baseUrls: rec.baseUrls })
    expect(await account.organization()).toEqual({ isRampableEnabled: true, rampableClientSecret: 'rcs' })
    const req = await onlyRequest(rec)
    expect([req.method, req.headers['x-client-secret'], req.body]).toEqual(['GET', 'cs', ''])
  })

  test('wallet/refresh and wallet/refresh-rampable', async () => {
    await rec.rules(
      { path: '/api/v2/wallet/refresh', body: { walletToken: 'w2', refreshToken: 'r2' } },
      { path: '/api/v2/wallet/refresh-rampable', body: { rampableAccessToken: 'ra2' } },
    )
    const tokens = createTokenHolder({ walletToken: 'w1', refreshToken: 'r1' })
    const account = createAccountClient({ baseUrls: rec.baseUrls, tokens })
    expect(await account.refresh({ refreshToken: 'r1' })).toEqual({ walletToken: 'w2', refreshToken: 'r2' })
    expect(await account.refreshRampable({ rampableAccessToken: 'ra1' })).toEqual({ rampableAccessToken: 'ra2' })
    const [refresh, rampRefresh] = await rec.requests()
    expect(JSON.parse(refresh!.body)).toEqual({ refreshToken: 'r1' })
    expect(JSON.parse(rampRefresh!.body)).toEqual({ rampableAccessToken: 'ra1' })
    expect(rampRefresh!.headers.authorization).toBe('Bearer w2')
    expect(tokens.get()).toEqual({ walletToken: 'w2', refreshToken: 'r2', rampAccessToken: 'ra2' })
  })

  test('refresh takes an AbortSignal: the caller stops waiting, the shared refresh still lands', async () => {
    await rec.rules({ path: '/api/v2/wallet/refresh', delayMs: 200, body: { walletToken: 'w2', refreshToken: 'r2' } })
    const tokens = createTokenHolder({ walletToken: 'w1', refreshToken: 'r1' })
    const account = createAccountClient({ baseUrls: rec.baseUrls, tokens })
    const controller = new AbortController()
    const waiting = account.refresh({ refreshToken: 'r1' }, { signal: controller.signal })
    controller.abort()
    await expect(waiting).rejects.toMatchObject({ code: 'ABORT_ERR' })
    expect(await account.refresh({ refreshToken: 'r1' })).toEqual({ walletToken: 'w2', refreshToken: 'r2' })
    expect(await rec.requests()).toHaveLength(1)
    expect(tokens.get()).toEqual({ walletToken: 'w2', refreshToken: 'r2' })
  })
})
