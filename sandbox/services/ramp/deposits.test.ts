import { createHmac, hkdfSync } from 'node:crypto'
import { bytesToHex, parseEther, type Address, type Hash } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Deps } from '../../context.ts'
import { depositAccount, depositKeyInfo, depositWatcher } from './deposits.ts'
import type { RampOrderRow } from './order-queries.ts'

// The off-ramp deposit watcher's timer and its deposit keys, against a scripted database and chain
// (the races need exact interleavings; offramp.test.ts runs the watcher against a real sandbox).

const masterKey = new Uint8Array(32).fill(7)

describe('deposit keys', () => {
  test('an HKDF subkey of the master key with a purpose label, one per order, never the master key itself as an HMAC key', () => {
    const deps = { keys: { masterKey } } as unknown as Deps
    const id = 'ofr_0123456789abcdef01234567'
    const expected = privateKeyToAccount(bytesToHex(new Uint8Array(hkdfSync('sha256', masterKey, new Uint8Array(0), depositKeyInfo(id), 32))))
    expect(depositKeyInfo(id)).toBe(`wallet-kit/ramp/offramp-deposit/v1:${id}`)
    expect(depositAccount(deps, id).address).toBe(expected.address)
    expect(depositAccount(deps, 'ofr_0123456789abcdef01234568').address).not.toBe(expected.address)
    const direct = privateKeyToAccount(bytesToHex(createHmac('sha256', masterKey).update(`offramp-deposit:${id}`).digest()))
    expect(depositAccount(deps, id).address).not.toBe(direct.address)
  })
})

type Reply = { rows: unknown[]; rowCount: number }

/** A database whose watcher queries wait until the test answers them, and a chain scripted per address. */
function scripted() {
  const waiting: ((reply: Reply) => void)[] = []
  const credited: string[] = []
  const balances = new Map<string, () => Promise<bigint>>()
  const store = {
    query: vi.fn(async (sql: string, params: unknown[] = []) => {
      if (/^\s*SELECT \* FROM ramp_orders WHERE direction = 'offramp' AND paid_at IS NULL/.test(sql))
        return new Promise<Reply>((resolve) => waiting.push(resolve))
      if (/^\s*UPDATE ramp_orders SET paid_at/.test(sql)) {
        credited.push(params[0] as string)
        return { rows: [], rowCount: 1 }
      }
      throw new Error(`unexpected query: ${sql}`)
    }),
  }
  const client = {
    getBalance: ({ address }: { address: Address }) => balances.get(address)?.() ?? Promise.resolve(0n),
    getBlockNumber: async () => 5n,
    getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({
      number: blockNumber,
      transactions: [...balances.keys()].map((to, i) => ({ to, value: parseEther('1'), hash: `0x${String(i + 1).padStart(64, '0')}` as Hash })),
    }),
  }
  const deps = { store, networks: { list: [{ chain: { chainId: 31337 }, client }] } } as unknown as Deps
  return { deps, waiting, credited, balances, answer: (rows: unknown[]) => waiting.shift()!({ rows, rowCount: rows.length }) }
}

const order = (id: string, address: Address): RampOrderRow => ({
  id,
  app_id: 'demo',
  environment: 'development',
  direction: 'offramp',
  crypto_id: 'eth-local-1',
  chain_id: 31337,
  asset: 'ETH',
  fiat: 'USD',
  fiat_amount: '2970.00',
  crypto_amount: parseEther('1').toString(),
  quote: {},
  receiver: null,
  recipient_id: 'rcp_000000000000000000000000',
  deposit_address: address,
  start_block: '1',
  paid_at: null,
  tx_hash: null,
  expires_at: new Date(Date.now() + 60_000),
  created_at: new Date(),
  payout_to: { bank: 'demo-bank', accountNumber: '12345678', name: 'Ann' },
  failed_at: null,
  failure_reason: null,
})

describe('the watch timer', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  test('an order made while a check that found nothing is still running keeps the timer going', async () => {
    const chain = scripted()
    const watcher = depositWatcher(chain.deps, { intervalMs: 1000 })
    watcher.start()
    await vi.advanceTimersByTimeAsync(1000)
    expect(chain.waiting).toHaveLength(1)
    // A new order is stored and asks for the timer while that check runs; the check read before it and saw none.
    watcher.start()
    chain.answer([])
    await vi.advanceTimersByTimeAsync(1000)
    expect(chain.waiting).toHaveLength(1)
    chain.answer([])
    // Nothing asked since: now it stops.
    await vi.advanceTimersByTimeAsync(5000)
    expect(chain.waiting).toHaveLength(0)
  })

  test('a chain error on one order neither stops the timer nor holds up the other orders', async () => {
    const chain = scripted()
    const [a, b] = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000b2'] as const
    let failures = 2
    chain.balances.set(a, () => (failures-- > 0 ? Promise.reject(new Error('Chain unavailable')) : Promise.resolve(parseEther('1'))))
    chain.balances.set(b, () => Promise.resolve(parseEther('1')))
    const errors = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const watcher = depositWatcher(chain.deps, { intervalMs: 1000 })
    watcher.start()
    await vi.advanceTimersByTimeAsync(1000)
    chain.answer([order('ofr_a', a), order('ofr_b', b)])
    await vi.advanceTimersByTimeAsync(0)
    expect(chain.credited).toEqual(['ofr_b'])
    // The next checks still run; once the chain answers, the first is credited too.
    await vi.advanceTimersByTimeAsync(1000)
    chain.answer([order('ofr_a', a)])
    await vi.advanceTimersByTimeAsync(1000)
    chain.answer([order('ofr_a', a)])
    await vi.advanceTimersByTimeAsync(0)
    expect(chain.credited).toEqual(['ofr_b', 'ofr_a'])
    expect(errors).toHaveBeenCalled()
    errors.mockRestore()
  })
})
