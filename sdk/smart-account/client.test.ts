import { beforeEach, describe, expect, test } from 'vitest'
import { createSmartAccountClient, kitMarker } from '../index.ts'
import { onlyRequest, openRecorder } from '../recorder.fixture.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

const accountId = 'acc-1'
const owner = { id: 'user-1', provider: 'wallet-kit' }
type Row = [name: string, path: string, call: (c: ReturnType<typeof createSmartAccountClient>) => Promise<unknown>, body: object]

const userOpRows = (['hash', 'estimate'] as const).flatMap((step): Row[] => [
  [`deploy/${step}`, `/userOp/deploy/${step}`, (c) => c.userOp.deploy[step]({ accountId }), { accountId }],
  [
    `sendERC721/${step}`,
    `/userOp/sendERC721/${step}`,
    (c) => c.userOp.sendERC721[step]({ accountId, to: '0xT', tokenAddress: '0xN', tokenId: '1' }),
    { accountId, to: '0xT', tokenAddress: '0xN', tokenId: '1' },
  ],
  [
    `sendERC1155/${step}`,
    `/userOp/sendERC1155/${step}`,
    (c) => c.userOp.sendERC1155[step]({ accountId, to: '0xT', tokenAddress: '0xM', tokenId: '2', amount: '3' }),
    { data: '0x', accountId, to: '0xT', tokenAddress: '0xM', tokenId: '2', amount: '3' },
  ],
  [
    `sendCoin/${step}`,
    `/userOp/sendCoin/${step}`,
    (c) => c.userOp.sendCoin[step]({ accountId, to: '0xT', amount: '1' }),
    { accountId, to: '0xT', amount: '1' },
  ],
  [
    `sendToken/${step}`,
    `/userOp/sendToken/${step}`,
    (c) => c.userOp.sendToken[step]({ accountId, to: '0xT', tokenAddress: '0xE', amount: '1' }),
    { accountId, to: '0xT', tokenAddress: '0xE', amount: '1' },
  ],
  [
    `signTransaction/${step}`,
    `/userOp/signTransaction/${step}`,
    (c) => c.userOp.signTransaction[step]({ accountId, to: '0xT', value: '0' }),
    { data: '0x', accountId, to: '0xT', value: '0' },
  ],
])

const rows: Row[] = [
  ['create', '/smart-account', (c) => c.create({ owner }), { owner }],
  ['balance native', '/smart-account/balance/native', (c) => c.balanceNative({ accountId }), { accountId }],
  ['balance token', '/smart-account/balance/token', (c) => c.balanceToken({ accountId, tokenAddress: '0xE' }), { accountId, tokenAddress: '0xE' }],
  [
    'balance token batch',
    '/smart-account/balance/token/batch',
    (c) => c.balanceTokenBatch({ accountId, tokenAddresses: ['0xE', '0xF'] }),
    { accountId, tokenAddresses: ['0xE', '0xF'] },
  ],
  [
    'topUp',
    '/smart-account/topUp',
    (c) => c.topUp({ txHash: '0xh', chainId: 31337, receiverOwnerId: 'o', tokenAddress: '0xE', poolAddress: '0xP', immediate: true, signature: '0xs' }),
    { txHash: '0xh', chainId: 31337, receiverOwnerId: 'o', tokenAddress: '0xE', poolAddress: '0xP', immediate: true, signature: '0xs' },
  ],
  ['signMessage/hash', '/smart-account/signMessage/hash', (c) => c.signMessageHash({ accountId, message: 'hi' }), { accountId, message: 'hi' }],
  [
    'signTypedData/hash',
    '/smart-account/signTypedData/hash',
    (c) => c.signTypedDataHash({ accountId, typedData: { primaryType: 'Mail' } }),
    { accountId, typedData: { primaryType: 'Mail' } },
  ],
  ['buildSignature', '/smart-account/buildSignature', (c) => c.buildSignature({ accountId, signature: '0xs' }), { accountId, signature: '0xs' }],
  ...userOpRows,
  [
    'submit (isSponsored defaults to false)',
    '/userOp/submit',
    (c) => c.userOp.submit({ hash: '0xh', userOpId: 'op', signature: '0xs' }),
    { isSponsored: false, hash: '0xh', userOpId: 'op', signature: '0xs' },
  ],
  [
    'submit sponsored',
    '/userOp/submit',
    (c) => c.userOp.submit({ hash: '0xh', userOpId: 'op', signature: '0xs', isSponsored: true }),
    { isSponsored: true, hash: '0xh', userOpId: 'op', signature: '0xs' },
  ],
]

describe('with a client secret: HMAC-signed, recomputed with node:crypto', () => {
  test.each(rows)('%s → POST /api/v1%s', async (_, path, call, body) => {
    await rec.rules({ method: 'POST', path: `/api/v1${path}`, body: { ok: path } })
    const client = createSmartAccountClient({ appId: 'demo', clientSecret: 'app-secret', baseUrls: rec.baseUrls })
    expect(await call(client)).toEqual({ ok: path })
    const req = await onlyRequest(rec)
    expect(JSON.parse(req.body)).toEqual(body)
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.headers['x-app-id']).toBe('demo')
    expect(req.headers[kitMarker.header]).toBeUndefined()
    const timestamp = req.headers['x-timestamp']!
    expect(Math.abs(Date.parse(timestamp) - Date.now())).toBeLessThan(60_000)
    const stringToSign = `POST:/api/v1${path}:${await rec.sha256(req.body)}:${timestamp}`
    expect(req.headers['x-signature']).toBe(await rec.hmac('app-secret', stringToSign))
  })
})

describe('the kit marker', () => {
  test('without a client secret (the widget): marker and app id only, no signature', async () => {
    await rec.rules({ path: '/api/v1/smart-account', body: { accounts: [] } })
    await createSmartAccountClient({ appId: 'demo', baseUrls: rec.baseUrls }).create({ owner })
    const req = await onlyRequest(rec)
    expect(req.headers['x-app-id']).toBe('demo')
    expect(req.headers[kitMarker.header]).toBe(kitMarker.value)
    expect(req.headers['x-signature']).toBeUndefined()
    expect(req.headers['x-timestamp']).toBeUndefined()
  })

  test('a request that carries the marker is not signed even with a secret', async () => {
    await rec.rules({ path: '/api/v1/smart-account', body: { accounts: [] } })
    const client = createSmartAccountClient({ appId: 'demo', clientSecret: 's', baseUrls: rec.baseUrls })
    await client.create({ owner }, { headers: { [kitMarker.header]: kitMarker.value } })
    const req = await onlyRequest(rec)
    expect(req.headers['x-signature']).toBeUndefined()
    expect(req.headers['x-app-id']).toBe('demo')
  })
})
