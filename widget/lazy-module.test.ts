import { afterEach, beforeEach, expect, test, vi } from 'vitest'

// The module keeps the parts it has seen and the time of the last call: a fresh copy per test.
const fresh = async () => {
  vi.resetModules()
  return import('./lazy-module.ts')
}
const loader = () => vi.fn(async () => ({ part: true }))

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

test('the background fetch waits for a 300 ms spell without a call to the bridge, then fetches the parts one after the other', async () => {
  const { lazyModule, noteBridgeCall, preloadAll } = await fresh()
  const first = loader()
  const second = loader()
  lazyModule(first)
  lazyModule(second)
  noteBridgeCall()
  preloadAll()
  for (let t = 0; t < 1_000; t += 100) {
    await vi.advanceTimersByTimeAsync(100)
    noteBridgeCall()
  }
  await vi.advanceTimersByTimeAsync(250)
  expect(first).not.toHaveBeenCalled()
  // A quiet spell (and idle, 200 ms more here without requestIdleCallback).
  await vi.advanceTimersByTimeAsync(600)
  expect(first).toHaveBeenCalledTimes(1)
  expect(second).not.toHaveBeenCalled()
  // A call while the first part loads puts the second off again.
  noteBridgeCall()
  await vi.advanceTimersByTimeAsync(250)
  expect(second).not.toHaveBeenCalled()
  await vi.advanceTimersByTimeAsync(600)
  expect(second).toHaveBeenCalledTimes(1)
})

test('a page that keeps calling without a pause still gets the parts fetched, after 10 s', async () => {
  const { lazyModule, noteBridgeCall, preloadAll } = await fresh()
  const part = loader()
  lazyModule(part)
  noteBridgeCall()
  preloadAll()
  for (let t = 0; t < 9_500; t += 100) {
    await vi.advanceTimersByTimeAsync(100)
    noteBridgeCall()
  }
  expect(part).not.toHaveBeenCalled()
  for (let t = 0; t < 1_000; t += 100) {
    await vi.advanceTimersByTimeAsync(100)
    noteBridgeCall()
  }
  expect(part).toHaveBeenCalledTimes(1)
})

test('a part asked for loads at once while the background fetch waits, and is not fetched twice', async () => {
  const { lazyModule, noteBridgeCall, preloadAll } = await fresh()
  const part = loader()
  const module = lazyModule(part)
  noteBridgeCall()
  preloadAll()
  await expect(module.get()).resolves.toEqual({ part: true })
  expect(part).toHaveBeenCalledTimes(1)
  await vi.advanceTimersByTimeAsync(2_000)
  expect(part).toHaveBeenCalledTimes(1)
})

test('a part that failed to load does not stop the others, and is tried again when asked for', async () => {
  const { lazyModule, preloadAll } = await fresh()
  let online = false
  const failing = vi.fn(async () => {
    if (!online) throw new TypeError('Failed to fetch dynamically imported module')
    return { part: true }
  })
  const after = loader()
  const module = lazyModule(failing)
  lazyModule(after)
  preloadAll()
  await vi.advanceTimersByTimeAsync(1_000)
  expect(failing).toHaveBeenCalledTimes(1)
  expect(after).toHaveBeenCalledTimes(1)
  online = true
  await expect(module.get()).resolves.toEqual({ part: true })
  expect(failing).toHaveBeenCalledTimes(2)
})

test('whenQuiet runs once the bridge has been quiet for a spell and the browser idle, not before', async () => {
  const { noteBridgeCall, whenQuiet } = await fresh()
  const ran = vi.fn()
  noteBridgeCall()
  whenQuiet(ran)
  await vi.advanceTimersByTimeAsync(250)
  noteBridgeCall()
  await vi.advanceTimersByTimeAsync(500)
  expect(ran).not.toHaveBeenCalled()
  await vi.advanceTimersByTimeAsync(400)
  expect(ran).toHaveBeenCalledTimes(1)
})

test('nothing is fetched in the background while it is held (a request waits for the user), whatever the patience; then it resumes', async () => {
  const { lazyModule, preloadAll } = await fresh()
  const part = loader()
  lazyModule(part)
  let held = true
  preloadAll(() => held)
  await vi.advanceTimersByTimeAsync(12_000)
  expect(part).not.toHaveBeenCalled()
  held = false
  await vi.advanceTimersByTimeAsync(600)
  expect(part).toHaveBeenCalledTimes(1)
})
