import { createPublicClient, erc20Abi, http, parseEther, type Address, type Hash } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readSeed } from '../app-config/apps.ts'
import { upsertApp } from '../app-config/queries.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// The buy screen's ramp calls with the demo app's publishable key, and the hosted on-ramp page
// end to end: the order page, its validation, and a payout that lands on the local chain.

let sandbox: TestSandbox
const key = 'demo-ramp-publishable'

beforeAll(async () => {
  sandbox = await startTestSandbox()
  const demo = readSeed().find((seed) => seed.appId === 'demo')!
  // An app whose name is markup: the order page must show it as text.
  await upsertApp(sandbox.store, {
    ...demo,
    appId: 'markup',
    name: '<img src=x onerror=alert(1)>',
    settings: { ...demo.settings, rampableClientSecret: 'markup-key' },
  })
})
afterAll(() => sandbox?.dispose())

/** A /v1 call as the widget makes it (same origin, no app id), with the ramp client secret unless `secret` is null. */
const ramp = (path: string, secret: string | null = key) =>
  sandbox.call(`/v1${path}`, { app: null, secret, headers: { origin: sandbox.url, ...(secret ? { 'x-client-secret': secret } : {}) } })

describe('ramp calls of the buy screen', () => {
  test('cryptos and currencies with the publishable key; cryptos refused without it', async () => {
    const cryptos = await ramp('/reference/cryptos?transactionType=onramp&blockchainType=EVM')
    expect(cryptos.status).toBe(200)
    expect(cryptos.body.data.map((crypto: { id: string }) => crypto.id)).toEqual(['eth-local-1', 'demo-local-1', 'eth-local-2', 'demo-local-2'])
    expect(cryptos.body.data[2]).toEqual({
      id: 'eth-local-2',
      symbol: 'ETH',
      name: 'Ether',
      label: 'ETH (Local Chain 2)',
      logo: `${sandbox.url}/icons/chains/local-2.svg`,
      network: 'local-2',
      chainId: 31338,
      currencies: ['IDR', 'USD', 'EUR'],
    })
    expect((await ramp('/reference/cryptos?transactionType=onramp&blockchainType=SOLANA')).body.data).toEqual([])
    expect((await ramp('/reference/cryptos?transactionType=swap')).body).toEqual({
      status: 400,
      message: 'transactionType must be onramp or offramp',
      data: null,
    })
    expect((await ramp('/reference/cryptos?transactionType=onramp&blockchainType=EVM', null)).status).toBe(401)
    expect((await ramp('/reference/cryptos', 'not-a-key')).body).toEqual({ status: 401, message: 'Invalid client secret', data: null })

    // The fiat list is public reference data: with the key, or without any credential.
    const ids = (body: { data: { id: string }[] }) => body.data.map((fiat) => fiat.id)
    expect(ids((await ramp('/reference/currencies?limit=100')).body)).toEqual(['IDR', 'USD', 'EUR'])
    expect(ids((await ramp('/reference/currencies?limit=100', null)).body)).toEqual(['IDR', 'USD', 'EUR'])
    expect((await ramp('/reference/currencies?limit=100', 'not-a-key')).status).toBe(401)
  })

  test('quotes with the publishable key, refused without it; the key reads nothing else', async () => {
    const quote = await ramp('/onramp/quote?amount=150000&inputCurrency=IDR&outputCurrency=eth-local-1&withLimit=false')
    expect(quote.body).toEqual({
      status: 200,
      message: 'OK',
      data: {
        rate_amount: 48_000_000,
        currency: 'IDR',
        coin: 'ETH',
        amount_in_crypto: '0.00312500',
        total_fee_amount: '1500.00',
        total_received_amount_in_crypto: '0.00309375',
      },
    })
    const limited = await ramp('/onramp/quote?amount=25&inputCurrency=USD&outputCurrency=demo-local-2&withLimit=true')
    expect(limited.body.data).toMatchObject({ coin: 'DEMO', total_received_amount_in_crypto: '24.75000000', min_amount: 1, max_amount: 10_000 })
    expect((await ramp('/onramp/quote?amount=150000&inputCurrency=IDR&outputCurrency=eth-local-1', null)).status).toBe(401)
    const posted = await sandbox.call('/v1/onramp', { method: 'POST', app: null, headers: { 'x-client-secret': key }, body: '{}' })
    expect(posted.body).toEqual({ status: 403, message: 'The ramp client secret is a publishable key: it reads references and quotes only', data: null })
  })

  test('a quote the buy screen cannot use is a 400 with the reason', async () => {
    const quoteError = async (query: string) => {
      const answer = await ramp(`/onramp/quote?${query}`)
      expect(answer.status).toBe(400)
      expect(answer.body.status).toBe(400)
      return answer.body.message
    }
    expect(await quoteError('amount=9999&inputCurrency=IDR&outputCurrency=eth-local-1&withLimit=false')).toBe('Minimum amount is 10,000 IDR')
    expect(await quoteError('amount=0.99&inputCurrency=USD&outputCurrency=eth-local-1&withLimit=false')).toBe('Minimum amount is 1 USD')
    expect(await quoteError('amount=0.5&inputCurrency=EUR&outputCurrency=demo-local-1&withLimit=false')).toBe('Minimum amount is 1 EUR')
    expect(await quoteError('amount=10000.01&inputCurrency=USD&outputCurrency=eth-local-1')).toBe('Maximum amount is 10,000 USD')
    expect(await quoteError('amount=0&inputCurrency=USD&outputCurrency=eth-local-1')).toBe('amount must be greater than 0')
    expect(await quoteError('amount=1e5&inputCurrency=USD&outputCurrency=eth-local-1')).toBe('amount must be a number with at most 2 decimals')
    expect(await quoteError('inputCurrency=USD&outputCurrency=eth-local-1')).toBe('amount must be a number with at most 2 decimals')
    expect(await quoteError('amount=10&inputCurrency=GBP&outputCurrency=eth-local-1')).toBe('Unknown currency: GBP')
    expect(await quoteError('amount=10&inputCurrency=USD&outputCurrency=btc-local-1')).toBe('Unknown crypto: btc-local-1')
    expect(await quoteError('amount=10&inputCurrency=USD&outputCurrency=eth-local-1&withLimit=maybe')).toBe('withLimit must be true or false')
    // Exactly the minimum is fine.
    expect((await ramp('/onramp/quote?amount=10000&inputCurrency=IDR&outputCurrency=eth-local-1&withLimit=false')).status).toBe(200)
  })
})

type Order = { amount: string; fiat: string; crypto: string; receiver: string; secret?: string }

const orderUrl = ({ amount, fiat, crypto, receiver, secret = key }: Order) =>
  `/onramp?${new URLSearchParams({ clientSecret: secret, receiverWalletAddress: receiver, inputAmount: amount, inputCurrency: fiat, outputCurrency: crypto })}`

/** Opens the order page as a browser would: its order token and the browser cookie it set. */
async function openOrder(order: Order) {
  const response = await fetch(`${sandbox.url}${orderUrl(order)}`)
  const html = await response.text()
  expect(response.status).toBe(200)
  const token = /name="order" value="([A-Za-z0-9_-]+)"/.exec(html)?.[1]
  const cookie = response.headers.get('set-cookie')?.split(';')[0]
  expect(token).toBeDefined()
  expect(cookie).toMatch(/^onramp_browser=[A-Za-z0-9_-]{43}$/)
  return { html, headers: response.headers, token: token!, cookie: cookie! }
}

const pay = async (token: string, cookie: string | undefined, origin: string | undefined = sandbox.url) => {
  const response = await fetch(`${sandbox.url}/onramp`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) },
    body: new URLSearchParams({ order: token }).toString(),
  })
  return { status: response.status, html: await response.text() }
}

const chainClient = (index: number) => createPublicClient({ transport: http(sandbox.chains[index]!.rpcUrl) })
const newReceiver = () => privateKeyToAccount(generatePrivateKey()).address
const demoBalance = (index: number, address: Address) =>
  chainClient(index).readContract({ address: demoContracts.demoToken.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] })

describe('hosted on-ramp page', () => {
  test('invalid links get a 400 page naming every problem', async () => {
    const page = async (query: string) => {
      const response = await fetch(`${sandbox.url}/onramp${query}`)
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toContain('text/html')
      const html = await response.text()
      expect(html).toContain('<h1>Invalid order</h1>')
      return html
    }
    const nothing = await page('')
    for (const problem of [
      'clientSecret is required',
      'receiverWalletAddress must be an EVM address (0x and 40 hex digits)',
      'inputAmount must be a number with at most 2 decimals',
      'inputCurrency must be one of IDR, USD, EUR',
      'outputCurrency must be a crypto id from /v1/reference/cryptos (like eth-local-1)',
    ])
      expect(nothing).toContain(`<li>${problem}</li>`)

    const receiver = newReceiver()
    const good = { amount: '20', fiat: 'USD', crypto: 'eth-local-1', receiver }
    expect(await page(orderUrl({ ...good, secret: 'demo-client-secret' }).slice(7))).toContain('<li>clientSecret is not the ramp client secret of any app</li>')
    expect(await page(orderUrl({ ...good, receiver: `${receiver.slice(0, -1)}<` }).slice(7))).toContain('receiverWalletAddress must be an EVM address')
    // A mixed-case address with a wrong checksum is a typo, not an address.
    const letter = receiver.slice(2).search(/[a-fA-F]/) + 2
    const flipped = receiver[letter]!
    const badChecksum =
      receiver.slice(0, letter) + (flipped === flipped.toLowerCase() ? flipped.toUpperCase() : flipped.toLowerCase()) + receiver.slice(letter + 1)
    expect(await page(orderUrl({ ...good, receiver: badChecksum }).slice(7))).toContain('receiverWalletAddress must be an EVM address')
    expect(await page(orderUrl({ ...good, amount: '0' }).slice(7))).toContain('<li>inputAmount must be greater than 0</li>')
    expect(await page(orderUrl({ ...good, amount: '-5' }).slice(7))).toContain('<li>inputAmount must be a number with at most 2 decimals</li>')
    expect(await page(orderUrl({ ...good, amount: '0.5' }).slice(7))).toContain('<li>Minimum amount is 1 USD</li>')
    expect(await page(orderUrl({ ...good, fiat: 'GBP' }).slice(7))).toContain('<li>inputCurrency must be one of IDR, USD, EUR</li>')
    // The symbol alone names no chain: the id from reference/cryptos is needed.
    expect(await page(orderUrl({ ...good, crypto: 'ETH' }).slice(7))).toContain('<li>outputCurrency must be a crypto id')
    const injected = await page(orderUrl({ ...good, crypto: '<script>alert(1)</script>' }).slice(7))
    expect(injected).not.toContain('<script>')
  })

  test('the order page shows the order as text, with the headers of the other pages', async () => {
    const receiver = newReceiver()
    const { html, headers } = await openOrder({ amount: '150000', fiat: 'IDR', crypto: 'eth-local-2', receiver, secret: 'markup-key' })
    expect(html).toContain('<h1>Confirm your order</h1>')
    expect(html).toContain('<dd id="pay-amount">150,000 IDR</dd>')
    expect(html).toContain('<dd id="receive-amount">≈ 0.00309375 ETH</dd>')
    expect(html).toContain('Local Chain 2 (chain 31338)</dd>')
    expect(html).toContain(`<code id="receiver">${receiver}</code>`)
    expect(html).toContain('<button type="submit">Pay with sandbox bank</button>')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).not.toContain('<img src=x')
    expect(html).not.toContain('<script')
    const csp = headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("form-action 'self'")
    expect(csp).not.toContain('script-src')
    expect(headers.get('cache-control')).toBe('no-store')
    expect(headers.get('set-cookie')).toMatch(/Path=\/onramp; HttpOnly; SameSite=Strict/)
  })

  test('paying sends the quoted ETH on the chosen chain, once', async () => {
    const receiver = newReceiver()
    const order = { amount: '150000', fiat: 'IDR', crypto: 'eth-local-2', receiver }
    const quote = (await ramp(`/onramp/quote?amount=150000&inputCurrency=IDR&outputCurrency=eth-local-2&withLimit=false`)).body.data
    const { token, cookie } = await openOrder(order)

    const paid = await pay(token, cookie)
    expect(paid.status).toBe(200)
    expect(paid.html).toContain('<h1>Payment received</h1>')
    const hash = /<code id="tx-hash">(0x[0-9a-f]{64})<\/code>/.exec(paid.html)?.[1] as Hash
    expect(hash).toBeDefined()
    const receipt = await chainClient(1).getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect([receipt.from.toLowerCase(), receipt.to?.toLowerCase()]).toEqual([sandbox.faucetAddress.toLowerCase(), receiver.toLowerCase()])
    expect(await chainClient(1).getBalance({ address: receiver })).toBe(parseEther(quote.total_received_amount_in_crypto))
    expect(await chainClient(0).getBalance({ address: receiver })).toBe(0n)

    const again = await pay(token, cookie)
    expect(again.status).toBe(400)
    expect(again.html).toContain('<h1>Order already used</h1>')
    expect(await chainClient(1).getBalance({ address: receiver })).toBe(parseEther('0.00309375'))
  })

  test('paying DEMO transfers the token from the faucet account', async () => {
    const receiver = newReceiver()
    const { token, cookie } = await openOrder({ amount: '25', fiat: 'USD', crypto: 'demo-local-1', receiver })
    const paid = await pay(token, cookie)
    expect(paid.html).toContain(`24.75 DEMO sent to <code id="receiver">${receiver}</code> on Local Chain 1 (chain 31337).`)
    expect(await demoBalance(0, receiver)).toBe(parseEther('24.75'))
    expect(await demoBalance(1, receiver)).toBe(0n)
    const hash = /<code id="tx-hash">(0x[0-9a-f]{64})<\/code>/.exec(paid.html)![1] as Hash
    const receipt = await chainClient(0).getTransactionReceipt({ hash })
    expect([receipt.status, receipt.from.toLowerCase(), receipt.to?.toLowerCase()]).toEqual([
      'success',
      sandbox.faucetAddress.toLowerCase(),
      demoContracts.demoToken.address.toLowerCase(),
    ])
  })

  test('a token is refused from another browser, another site, after expiry, or when made up', async () => {
    const receiver = newReceiver()
    const { token, cookie } = await openOrder({ amount: '10', fiat: 'EUR', crypto: 'eth-local-1', receiver })
    const elsewhere = await pay(token, undefined)
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.html).toContain('<h1>Unknown order</h1>')
    const otherBrowser = (await openOrder({ amount: '10', fiat: 'EUR', crypto: 'eth-local-1', receiver })).cookie
    expect(otherBrowser).not.toBe(cookie)
    expect((await pay(token, otherBrowser)).html).toContain('<h1>Unknown order</h1>')
    const crossSite = await pay(token, cookie, 'https://evil.example')
    expect(crossSite.status).toBe(403)
    expect((await pay('made-up', cookie)).html).toContain('<h1>Unknown order</h1>')
    expect(await chainClient(0).getBalance({ address: receiver })).toBe(0n)

    await sandbox.store.query("UPDATE onramp_orders SET expires_at = now() - interval '1 second' WHERE receiver = $1", [receiver])
    const expired = await pay(token, cookie)
    expect(expired.status).toBe(400)
    expect(expired.html).toContain('<h1>Order expired</h1>')
    expect(await chainClient(0).getBalance({ address: receiver })).toBe(0n)
  })
})
