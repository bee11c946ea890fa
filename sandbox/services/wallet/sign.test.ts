import {
  createPublicClient,
  hashMessage,
  http,
  keccak256,
  parseEther,
  parseTransaction,
  recoverAddress,
  recoverTransactionAddress,
  toHex,
  verifyMessage,
  verifyTypedData,
  type Hex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { operationTypedData } from '../../../sdk/smart-account/operation.ts'
import { startTestSandbox, type CreatedWallet, type TestSandbox } from '../../sandbox.fixture.ts'

let sandbox: TestSandbox
let wallet: CreatedWallet

beforeAll(async () => {
  sandbox = await startTestSandbox()
  wallet = await sandbox.signUp('signer@example.com')
})
afterAll(() => sandbox?.dispose())

const sign = (path: string, body: unknown, token = wallet.walletToken) => sandbox.post(`/api/v2/wallet/${path}`, body, token)

const mail = {
  domain: { name: 'Mail', version: '1', chainId: 31337, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
    amount: '1000000000000000000000',
  },
} as const

/** An operation's authorisation (sdk/smart-account/operation.ts) for some account: only sign-user-operation gives one. */
const operation = {
  ...operationTypedData({ chainId: 31337, account: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC', userOpHash: keccak256(toHex('an operation')) }),
}

describe('sign-message', () => {
  test('signs text with the wallet key (EIP-191)', async () => {
    const { status, body } = await sign('sign-message', { network: 'local-1', message: 'hello sandbox' })
    expect(status).toBe(200)
    expect(body).toEqual({ status: 200, message: 'OK', data: { signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) } })
    expect(await verifyMessage({ address: wallet.address, message: 'hello sandbox', signature: body.data.signature })).toBe(true)
  })

  test('0x-hex is signed as raw bytes, like personal_sign', async () => {
    const raw = toHex('bytes from a dapp')
    const { body } = await sign('sign-message', { network: 'local-2', message: raw })
    expect(await verifyMessage({ address: wallet.address, message: { raw }, signature: body.data.signature })).toBe(true)
  })
})

describe('sign-typed-data', () => {
  test('signs EIP-712 JSON (eth_signTypedData_v4 shape, EIP712Domain included, numbers as strings)', async () => {
    const { status, body } = await sign('sign-typed-data', { network: 'local-1', data: JSON.stringify(mail) })
    expect(status).toBe(200)
    const { EIP712Domain: _, ...types } = mail.types
    const valid = await verifyTypedData({
      address: wallet.address,
      domain: mail.domain,
      types,
      primaryType: 'Mail',
      message: { ...mail.message, amount: 1000n * 10n ** 18n },
      signature: body.data.signature,
    })
    expect(valid).toBe(true)
  })

  test.each([
    ['a domain chainId of another chain', { network: 'local-2', data: JSON.stringify(mail) }, 'data.domain.chainId does not match the network (31338)'],
    ['data that is not JSON', { network: 'local-1', data: '{types' }, 'data must be EIP-712 typed data as a JSON string'],
    ['data as an object instead of a string', { network: 'local-1', data: mail }, 'data must be a string'],
    ['no primaryType', { network: 'local-1', data: JSON.stringify({ ...mail, primaryType: undefined }) }, 'data.primaryType is required'],
  ])('refuses %s', async (_, body, message) => {
    const response = await sign('sign-typed-data', body)
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ status: 400, message, data: null })
  })

  test('refuses typed data whose message does not fit its types', async () => {
    const broken = { ...mail, message: { ...mail.message, from: { name: 'Cow', wallet: 'not an address' } } }
    const response = await sign('sign-typed-data', { network: 'local-1', data: JSON.stringify(broken) })
    expect(response.status).toBe(400)
    expect(response.body.message).toMatch(/^Invalid typed data: /)
  })
})

describe('no bare hash is signed (issue 24: it would sign a smart account operation around step-up)', () => {
  test('sign-hash is gone: 404, for a token holder as for anyone', async () => {
    const response = await sign('sign-hash', { network: 'local-1', hash: keccak256(toHex('payload')) })
    expect(response.status).toBe(404)
    expect(response.body.data?.signature).toBeUndefined()
  })

  test("binary personal_sign goes through sign-message as 0x-hex: the EIP-191 signature of the exact bytes, up to the frame's 32,000 bytes", async () => {
    // Not UTF-8 (0xff, 0xfe, NUL): what the frame used to hash itself and send to sign-hash.
    const raw = toHex(Uint8Array.from({ length: 32_000 }, (_, i) => (i % 3 === 0 ? 0xff : i % 3 === 1 ? 0xfe : 0)))
    const { status, body } = await sign('sign-message', { network: 'local-1', message: raw })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(await verifyMessage({ address: wallet.address, message: { raw }, signature: body.data.signature })).toBe(true)
    // The digest the old path signed raw, so the signature is the one the frame got before (RFC 6979 is deterministic).
    expect(await recoverAddress({ hash: hashMessage({ raw }), signature: body.data.signature })).toBe(wallet.address)
  })

  test.each([
    ['the primary type WalletKitOperation', { ...operation, domain: { ...operation.domain, name: 'Other' } }],
    ["the account's domain name", { ...mail, domain: { ...mail.domain, name: 'WalletKitAccount' } }],
    ['WalletKitOperation among the types', { ...mail, types: { ...mail.types, WalletKitOperation: operation.types.WalletKitOperation } }],
    ['an exact operation authorisation', operation],
  ])('sign-typed-data refuses typed data with %s: 400, nothing signed', async (_, data) => {
    const response = await sign('sign-typed-data', { network: 'local-1', data: JSON.stringify(data) })
    expect(response.body).toEqual({ status: 400, message: "Typed data in a smart account's own domain is not signed here", data: null })
  })
})

describe('sign-transaction', () => {
  test('fills nonce, gas and fees, signs for the chain, and the chain accepts it', async () => {
    const to = '0x000000000000000000000000000000000000dEaD'
    const { status, body } = await sign('sign-transaction', {
      network: 'local-2',
      transaction: { from: wallet.address, to, value: '0.25' },
    })
    expect(status).toBe(200)
    const signed = body.data.signedTransaction as Hex
    const tx = parseTransaction(signed)
    expect(tx).toMatchObject({ type: 'eip1559', chainId: 31338, to: to.toLowerCase(), value: parseEther('0.25'), nonce: 0 })
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(wallet.address)

    // Signing alone sends nothing; broadcasting the result is what moves the funds.
    const chain = createPublicClient({ transport: http(`${sandbox.url}/rpc/31338`) })
    expect(await chain.getTransactionCount({ address: wallet.address })).toBe(0)
    const hash = await chain.sendRawTransaction({ serializedTransaction: signed })
    expect((await chain.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success')
    expect(await chain.getBalance({ address: to })).toBe(parseEther('0.25'))
  })

  test('a gasPrice makes a legacy transaction; given nonce and gas are kept', async () => {
    const { body } = await sign('sign-transaction', {
      network: 'local-1',
      transaction: { from: wallet.address, to: wallet.address, value: '0x0', data: '0x', nonce: 7, gasLimit: '30000', gasPrice: '2000000000' },
    })
    expect(parseTransaction(body.data.signedTransaction)).toMatchObject({ type: 'legacy', chainId: 31337, nonce: 7, gas: 30000n, gasPrice: 2_000_000_000n })
  })

  test.each([
    [
      'another from address',
      { from: '0x000000000000000000000000000000000000bEEF', to: '0x000000000000000000000000000000000000dEaD' },
      'transaction.from is not this wallet',
    ],
    ['a bad checksum', { from: 'WALLET', to: '0x000000000000000000000000000000000000DEAD' }, 'transaction.to has an invalid checksum'],
    [
      'a value in a wrong format',
      { from: 'WALLET', to: '0x000000000000000000000000000000000000dEaD', value: 1 },
      'transaction.value must be a decimal string in whole units, e.g. "0.125"',
    ],
    [
      'legacy and EIP-1559 fees together',
      { from: 'WALLET', to: '0x000000000000000000000000000000000000dEaD', gasPrice: '1', maxFeePerGas: '2' },
      'gasPrice (legacy) cannot be combined with maxFeePerGas or maxPriorityFeePerGas (EIP-1559)',
    ],
    ['an unknown field', { from: 'WALLET', to: '0x000000000000000000000000000000000000dEaD', gas: '21000' }, 'Unknown field in transaction: gas'],
  ])('refuses %s', async (_, transaction, message) => {
    const from = transaction.from === 'WALLET' ? wallet.address : transaction.from
    const response = await sign('sign-transaction', { network: 'local-1', transaction: { ...transaction, from } })
    expect(response.body).toEqual({ status: 400, message, data: null })
  })
})

describe('every signing call checks the request', () => {
  test.each([
    ['no token', { network: 'local-1', message: 'x' }, '', 401, 'Missing bearer token'],
    ['an access token instead of a wallet token', { network: 'local-1', message: 'x' }, 'ACCESS', 401, 'Invalid token'],
    ['an unknown network', { network: 'mainnet', message: 'x' }, undefined, 400, 'Unsupported network, use one of: local-1, local-2'],
    ['a missing field', { network: 'local-1' }, undefined, 400, 'message is required'],
    ['a wrong type', { network: 'local-1', message: 42 }, undefined, 400, 'message must be a string'],
    ['an unknown field', { network: 'local-1', message: 'x', chainId: 1 }, undefined, 400, 'Unknown field in body: chainId'],
    ['malformed JSON', '{"network":', undefined, 400, 'Malformed JSON body'],
  ])('%s', async (_, body, token, status, message) => {
    let bearer = token ?? wallet.walletToken
    if (token === 'ACCESS') {
      const { verificationToken, code } = await sandbox.requestCode('no-wallet-yet@example.com')
      const login = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
      bearer = login.body.data.accessToken
    }
    const response = await sign('sign-message', body, bearer)
    expect(response.status).toBe(status)
    expect(response.body).toEqual({ status, message, data: null })
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts/)
  })
})

describe('signing permission', () => {
  test('a wallet without the permission is refused with 407 and a working permission-accept page', async () => {
    const locked = await sandbox.signUp('locked@example.com')
    const revoked = await fetch(`${sandbox.url}/dev/api/wallets/${locked.address}/permission`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"granted":false}',
    })
    expect(await revoked.json()).toEqual({ address: locked.address, isPermissionGranted: false })

    const refused = await sign('sign-message', { network: 'local-1', message: 'hi' }, locked.walletToken)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({
      status: 407,
      message: 'Permission needed',
      data: { isPermissionGranted: false, acceptPermissionPage: expect.stringMatching(new RegExp(`^${sandbox.url}/permission/accept\\?token=`)) },
    })
    for (const [path, body] of [
      ['sign-typed-data', { network: 'local-1', data: JSON.stringify(mail) }],
      ['sign-transaction', { network: 'local-1', transaction: { from: locked.address, to: locked.address } }],
      ['send-transaction', { network: 'local-1', transaction: { from: locked.address, to: locked.address, data: '0x' } }],
      ['sign-user-operation', { userOpId: 'op-1' }],
      ['sign-account-message', { accountId: 'acc-1', message: 'hi' }],
    ] as const)
      expect((await sign(path, body, locked.walletToken)).body.status).toBe(407)
    // Reads need no permission: only signing and sending do.
    expect((await sign('balance-coin', { network: 'local-1' }, locked.walletToken)).status).toBe(200)
    expect((await sign('estimate-gas', { network: 'local-1', type: 'send-coin', to: locked.address, amount: '1' }, locked.walletToken)).status).toBe(200)

    // The page names the wallet and app, is never framed, and its form grants the permission.
    const link = refused.body.data.acceptPermissionPage as string
    const shown = await fetch(link)
    expect(shown.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const html = await shown.text()
    expect(html).toContain(locked.address)
    expect(html).toContain('Wallet Kit Demo')
    // Granting takes the e-mail code the page's confirm sends (emulators/permission tests the rest).
    const token = new URL(link).searchParams.get('token')!
    const asked = await (await fetch(`${sandbox.url}/permission/accept`, { method: 'POST', body: new URLSearchParams({ token }) })).text()
    const challengeId = /name="challengeId" value="([^"]+)"/.exec(asked)![1]!
    const code = ((await sandbox.call('/dev/api/inbox?to=locked%40example.com')).body as { code: string }[])[0]!.code
    const accepted = await fetch(`${sandbox.url}/permission/accept`, { method: 'POST', body: new URLSearchParams({ token, challengeId, code }) })
    expect(await accepted.text()).toContain('Permission granted')
    const signed = await sign('sign-message', { network: 'local-1', message: 'hi' }, locked.walletToken)
    expect(await verifyMessage({ address: locked.address, message: 'hi', signature: signed.body.data.signature })).toBe(true)
  })

  test('a forged or foreign permission link grants nothing', async () => {
    const other = await sandbox.signUp('other-locked@example.com')
    await sandbox.store.query('UPDATE wallets SET permission_granted = false WHERE address = $1', [other.address])
    for (const token of ['nope', wallet.walletToken, other.walletToken]) {
      const response = await fetch(`${sandbox.url}/permission/accept`, { method: 'POST', body: new URLSearchParams({ token }) })
      expect(response.status).toBe(400)
    }
    expect((await sign('sign-message', { network: 'local-1', message: 'hi' }, other.walletToken)).body.status).toBe(407)
  })
})
