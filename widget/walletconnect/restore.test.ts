import { expect, test, vi } from 'vitest'

const restored = vi.fn(async (_topic: string) => {})
vi.mock('./connector.ts', () => ({ createConnector: () => ({ restore: restored }) }))

const { createWalletConnect } = await import('./index.ts')

/** What createWalletConnect reads of the wallet before a restore: only whether a session is held. */
const wallet = (session: unknown = null) => ({ ui: { get: () => ({ session }) } }) as never
const make = (persistent: boolean, session?: unknown) =>
  createWalletConnect({ wallet: wallet(session), config: {} as never, appName: 'Demo', persistent, rpc: () => ({}) as never })

test('the topic the frame read at its start is the one restored, where the frame may store', async () => {
  restored.mockClear()
  await make(true).restore(Promise.resolve('topic-1'))
  expect(restored).toHaveBeenCalledWith('topic-1')
})

test('where the frame may not store, a topic read early (from a database the probe then refused) is ignored', async () => {
  restored.mockClear()
  await make(false).restore(Promise.resolve('topic-1'))
  expect(restored).not.toHaveBeenCalled()
})

test('an early read that failed restores nothing and throws nothing', async () => {
  restored.mockClear()
  await expect(make(true).restore(Promise.reject(new Error('blocked')))).resolves.toBeUndefined()
  expect(restored).not.toHaveBeenCalled()
})

test('an embedded wallet session already held: no WalletConnect session is restored over it', async () => {
  restored.mockClear()
  await make(true, { address: '0x1' }).restore(Promise.resolve('topic-1'))
  expect(restored).not.toHaveBeenCalled()
})
