import { request } from 'node:http'
import { createPublicClient, createTestClient, erc20Abi, http, parseEther, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { demoContracts } from '../../contracts/deploy.ts'
import { otherMachines, startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// The hosted on-ramp page against a faucet-draining script: order pages and payments are limited
// per IP and per receiver, and payouts stop at the faucet's reserve. Every test sends from its own
// loopback address (127.0.0.x), standing for a machine of its own (otherMachines), so each has its own per-IP budget.

const hour = 60 * 60 * 1000
const reserve = { eth: parseEther('500'), demo: parseEther('5000000') }
let sandbox: TestSandbox

beforeAll(async () => {
  sandbox = await startTestSandbox({
    clientAddressOf: otherMachines,
    rateLimits: {
      onrampPagesPerIp: { max: 6, windowMs: hour },
      onrampPagesPerReceiver: { max: 3, windowMs: hour },
      onrampPaymentsPerIp: { max: 4, windowMs: hour },
      onrampPaymentsPerReceiver: { max: 2, windowMs: hour },
    },
    faucetReserve: reserve,
  })
})
afterAll(() => sandbox?.dispose())

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; html: string }

/** One HTTP request to the sandbox from the loopback address `from`. */
function send(from: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port: sandbox.port, localAddress: from, path, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        let html = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (html += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, html }))
      },
    )
    outgoing.on('error', reject)
    outgoing.end(options.body)
  })
}

const newReceiver = () => privateKeyToAccount(generatePrivateKey()).address

/** Opens an order page as one browser (`cookie` from its first page); answers the page, its token and cookie. */
async function open(from: string, receiver: string, options: { amount?: string; crypto?: string; cookie?: string } = {}) {
  const query = new URLSearchParams({
    clientSecret: 'demo-ramp-publishable',
    receiverWalletAddress: receiver,
    inputAmount: options.amount ?? '10',
    inputCurrency: 'USD',
    outputCurrency: options.crypto ?? 'eth-local-1',
  })
  const answer = await send(from, `/onramp?${query}`, { headers: options.cookie ? { cookie: options.cookie } : {} })
  const token = /name="order" value="([A-Za-z0-9_-]+)"/.exec(answer.html)?.[1]
  const setCookie = answer.headers['set-cookie']?.[0]?.split(';')[0]
  return { ...answer, token, cookie: setCookie ?? options.cookie }
}

const pay = (from: string, token: string, cookie: string | undefined) =>
  send(from, '/onramp', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://127.0.0.1:${sandbox.port}`, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ order: token }).toString(),
  })

/** A 429 HTML page naming `reason`, with the usual page headers and a Retry-After within the hour. */
function expectLimited(answer: Answer, reason: string) {
  expect(answer.status).toBe(429)
  expect(answer.headers['content-type']).toContain('text/html')
  expect(answer.html).toContain('<h1>Too many requests</h1>')
  expect(answer.html).toContain(`<p id="limit">${reason}</p>`)
  expect(answer.html).not.toContain('name="order"')
  const retryAfter = Number(answer.headers['retry-after'])
  expect(retryAfter).toBeGreaterThan(3500)
  expect(retryAfter).toBeLessThanOrEqual(3600)
  expect(answer.headers['content-security-policy']).toContain("default-src 'none'")
  expect(answer.headers['cache-control']).toBe('no-store')
}

const client = (index: number) => createPublicClient({ transport: http(sandbox.chains[index]!.rpcUrl) })
const ordersFor = async (receiver: Address) =>
  (await sandbox.store.query<{ used: boolean }>('SELECT used_at IS NOT NULL AS used FROM onramp_orders WHERE receiver = $1', [receiver])).rows

describe('rate limits of the hosted on-ramp page', () => {
  test('order pages: per receiver (any spelling of the address), then per IP; another IP is still served', async () => {
    const from = '127.0.0.11'
    const receiver = newReceiver()
    for (let index = 0; index < 3; index += 1) expect((await open(from, receiver)).status).toBe(200)
    const fourth = await open(from, receiver)
    expectLimited(fourth, 'Too many orders were opened for this wallet.')
    expect(fourth.headers['set-cookie']).toBeUndefined()
    expectLimited(await open(from, receiver.toLowerCase()), 'Too many orders were opened for this wallet.')
    expect(await ordersFor(receiver)).toHaveLength(3)

    // Six pages from this IP so far (the refused ones count too): the next receiver is refused, even a broken link.
    expect((await open(from, newReceiver())).status).toBe(200)
    const other = newReceiver()
    expectLimited(await open(from, other), 'Too many order pages were opened from your address.')
    expectLimited(await send(from, '/onramp'), 'Too many order pages were opened from your address.')
    expect(await ordersFor(other)).toHaveLength(0)

    expect((await open('127.0.0.12', other)).status).toBe(200)
  })

  test('payments: per receiver, then per IP; a refused order is not spent', async () => {
    const from = '127.0.0.21'
    const receiver = newReceiver()
    const first = await open(from, receiver)
    const cookie = first.cookie
    const orders = [first, await open(from, receiver, { cookie }), await open(from, receiver, { cookie })]
    const second = await open(from, newReceiver(), { cookie })
    for (const order of [...orders, second]) expect(order.token).toBeDefined()

    expect((await pay(from, orders[0]!.token!, cookie)).status).toBe(200)
    expect((await pay(from, orders[1]!.token!, cookie)).html).toContain('<h1>Payment received</h1>')
    const third = await pay(from, orders[2]!.token!, cookie)
    expectLimited(third, 'Too many payments were made to this wallet.')
    expect((await ordersFor(receiver)).map((order) => order.used).sort()).toEqual([false, true, true])
    expect(await client(0).getBalance({ address: receiver })).toBe(parseEther('0.0066'))

    // The fourth payment from this IP is within budget; the fifth is not, whatever it carries.
    expect((await pay(from, second.token!, cookie)).status).toBe(200)
    expectLimited(await pay(from, 'made-up', cookie), 'Too many payments were made from your address.')

    // Another IP is not limited, but this receiver still is.
    expect((await pay('127.0.0.22', 'made-up', cookie)).html).toContain('<h1>Unknown order</h1>')
    expectLimited(await pay('127.0.0.22', orders[2]!.token!, cookie), 'Too many payments were made to this wallet.')
    expect(await client(0).getBalance({ address: receiver })).toBe(parseEther('0.0066'))
  })
})

describe('faucet reserve', () => {
  const testClient = (index: number) => createTestClient({ mode: 'anvil', transport: http(sandbox.chains[index]!.rpcUrl) })
  const demoOf = (index: number, address: Address) =>
    client(index).readContract({ address: demoContracts.demoToken.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] })

  test('a payout that would take the faucet below its ETH reserve is refused with a 503 page, and nothing is sent', async () => {
    const from = '127.0.0.31'
    // Rather than paying out thousands of ETH, the test puts the faucet just above its reserve.
    await testClient(1).setBalance({ address: sandbox.faucetAddress, value: reserve.eth + parseEther('1') })

    const big = newReceiver()
    const order = await open(from, big, { amount: '10000', crypto: 'eth-local-2' })
    expect(order.html).toContain('≈ 3.3 ETH')
    const refused = await pay(from, order.token!, order.cookie)
    expect(refused.status).toBe(503)
    expect(refused.headers['content-type']).toContain('text/html')
    expect(refused.html).toContain('<h1>The sandbox faucet is low on funds</h1>')
    expect(await client(1).getBalance({ address: big })).toBe(0n)
    expect(await client(1).getBalance({ address: sandbox.faucetAddress })).toBe(reserve.eth + parseEther('1'))

    // A small order still fits above the reserve.
    const small = newReceiver()
    const fits = await open(from, small, { amount: '20', crypto: 'eth-local-2', cookie: order.cookie })
    expect((await pay(from, fits.token!, fits.cookie)).html).toContain('<h1>Payment received</h1>')
    expect(await client(1).getBalance({ address: small })).toBe(parseEther('0.0066'))

    // A DEMO payout's gas comes out of ETH too: at the reserve, it is refused as well.
    await testClient(1).setBalance({ address: sandbox.faucetAddress, value: reserve.eth })
    const demo = await open(from, small, { amount: '25', crypto: 'demo-local-2', cookie: order.cookie })
    const demoRefused = await pay(from, demo.token!, demo.cookie)
    expect(demoRefused.status).toBe(503)
    expect(demoRefused.html).toContain('<h1>The sandbox faucet is low on funds</h1>')
    expect(await demoOf(1, small)).toBe(0n)

    // New wallets are still funded from what the reserve kept (sign-ups stop only at the faucet's last 10 ETH, its gas).
    await testClient(1).setBalance({ address: sandbox.faucetAddress, value: parseEther('25') })
    const wallet = await sandbox.signUp('reserve@example.com')
    expect(await client(1).getBalance({ address: wallet.address })).toBe(parseEther('10'))
  })

  test('DEMO payouts leave the faucet at least its DEMO reserve (it mints what it lacks)', async () => {
    const from = '127.0.0.41'
    const receiver = newReceiver()
    const order = await open(from, receiver, { amount: '25', crypto: 'demo-local-1' })
    expect((await pay(from, order.token!, order.cookie)).html).toContain('<h1>Payment received</h1>')
    expect(await demoOf(0, receiver)).toBe(parseEther('24.75'))
    expect(await demoOf(0, sandbox.faucetAddress)).toBeGreaterThanOrEqual(reserve.demo)
  })
})
