// Red team (issue 21): one client's many concurrent simulations through /rpc, each within the gas
// caps, stalled the chain for everyone (the proxy forwarded them all at once; the chain answers one
// after another). Each client (ipKey) now has a few requests at the chain at once; more wait their
// turn, and past a bounded queue they are refused.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { otherMachines, postFrom, startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox({ clientAddressOf: otherMachines })
}, 120_000)
afterAll(() => sandbox?.dispose())

/** A JSON-RPC post to /rpc/31337 from `localAddress` (127.0.0.N counts as machine 192.0.2.N). */
const rpc = (localAddress: string, body: unknown) => postFrom(sandbox, localAddress, '/rpc/31337', body)

// A contract (put in place by a state override) that spends whatever gas it is given, then returns.
const burner = '0x00000000000000000000000000000000000100ee'
const burnCode = '0x5b5a6113881060005700' // JUMPDEST GAS PUSH2 5000 LT PUSH1 0 JUMPI STOP
const heavyBatch = Array.from({ length: 10 }, (_, id) => ({
  jsonrpc: '2.0',
  id,
  method: 'eth_call',
  params: [{ to: burner }, 'latest', { [burner]: { code: burnCode } }],
}))

test("one client's flood of capped simulations does not stall the chain for another client", async () => {
  const flood = Promise.all(Array.from({ length: 40 }, () => rpc('127.0.0.2', heavyBatch)))
  await new Promise((resolve) => setTimeout(resolve, 300))
  const other = await rpc('127.0.0.3', { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })
  expect(other.body).toMatchObject({ result: expect.stringMatching(/^0x/) })
  // Before: ~15 s behind the flood's batches (300M gas each).
  expect(other.ms).toBeLessThan(4_000)
  const answers = await flood
  // Every flood request was answered: served in turn (a result per call) or refused as too many at once.
  for (const answer of answers) {
    expect(answer.body).toHaveLength(10)
    if (answer.status === 429) expect((answer.body as unknown[])[0]).toMatchObject({ error: { code: -32005, message: expect.stringContaining('at once') } })
    else expect(answer.status).toBe(200)
  }
  // 2 at the chain and 32 waiting: of 40 sent at once, the rest were refused.
  expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThan(0)
  // Served in turn, the flooding client is served again once its own requests are done.
  expect((await rpc('127.0.0.2', { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] })).body).toMatchObject({ result: '0x7a69' })
}, 120_000)
