import { describe, expect, test, vi } from 'vitest'
import { coordinateRefresh } from './session-sync.ts'
import { alice, testWallet } from './test-wallet.ts'

/** A Web Lock stand-in: callbacks for one name run one at a time, in order. */
function locks() {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    request: <T>(_name: string, fn: () => Promise<T>) => {
      const next = tail.then(fn)
      tail = next.catch(() => {})
      return next
    },
  } as Pick<LockManager, 'request'>
}

describe('refreshes across tabs', () => {
  test('a token another tab already rotated is not spent again: the stored pair is used', async () => {
    const { sessions } = testWallet({ session: { ...alice, token: 'w2', refreshToken: 'r2' } })
    const refresh = vi.fn(async () => ({ walletToken: 'w3', refreshToken: 'r3' }))
    const options = { sessions, address: () => alice.address, lockName: 'l', locks: locks() }
    expect(await coordinateRefresh(options, 'r1', refresh)).toEqual({ walletToken: 'w2', refreshToken: 'r2' })
    expect(refresh).not.toHaveBeenCalled()
  })

  test('two tabs holding the same token at once: one spends it, the other takes its result', async () => {
    const { stored, sessions } = shared()
    const lock = locks()
    let spent = 0
    const refresh = async () => {
      spent++
      await new Promise((r) => setTimeout(r, 20))
      return { walletToken: `w${spent + 1}`, refreshToken: `r${spent + 1}` }
    }
    const options = { sessions, address: () => alice.address, lockName: 'l', locks: lock }
    const [a, b] = await Promise.all([coordinateRefresh(options, 'r1', refresh), coordinateRefresh(options, 'r1', refresh)])
    expect(spent).toBe(1)
    expect(a).toEqual({ walletToken: 'w2', refreshToken: 'r2' })
    expect(b).toEqual(a)
    expect(stored()).toMatchObject({ token: 'w2', refreshToken: 'r2' })
  })

  test("another account's stored session is neither taken nor overwritten", async () => {
    const { stored, sessions } = shared({ ...alice, address: '0x000000000000000000000000000000000000b0b0', refreshToken: 'bob' })
    const refresh = vi.fn(async () => ({ walletToken: 'w9', refreshToken: 'r9' }))
    const options = { sessions, address: () => alice.address, lockName: 'l', locks: undefined }
    expect(await coordinateRefresh(options, 'r1', refresh)).toEqual({ walletToken: 'w9', refreshToken: 'r9' })
    expect(stored()).toMatchObject({ refreshToken: 'bob' })
  })
})

/** One stored session (the same IndexedDB for every tab), token w1 / r1 unless given. */
function shared(initial: Omit<typeof alice, 'address'> & { address: `0x${string}` } = { ...alice, refreshToken: 'r1' }) {
  const { stored, sessions } = testWallet({ session: { ...initial, token: 'w1' } })
  return { stored, sessions }
}

test('the written session is handed back before the sdk sees the new pair, so nothing writes it twice', async () => {
  const { sessions } = testWallet({ session: { ...alice, token: 'w1', refreshToken: 'r1' } })
  const writes = vi.spyOn(sessions, 'patch')
  const stored = vi.fn()
  const pair = await coordinateRefresh(
    { sessions, address: () => alice.address, lockName: 'l', locks: undefined, stored },
    'r1',
    async () => ({ walletToken: 'w2', refreshToken: 'r2' }),
  )
  expect(pair).toEqual({ walletToken: 'w2', refreshToken: 'r2' })
  expect(writes).toHaveBeenCalledTimes(1)
  expect(stored).toHaveBeenCalledWith(expect.objectContaining({ token: 'w2', refreshToken: 'r2', address: alice.address }))
})
