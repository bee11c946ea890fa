import { expect, test } from '@playwright/test'
import { createPublicClient, http, numberToHex, toHex } from 'viem'
import { providerUrl } from './helpers.ts'

const chain = createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) })

test('100 concurrent EIP-1193 requests: every answer is the one for its own request', async ({ page }) => {
  await page.goto('/demo/')
  // Each request has its own answer: the gas of a call carrying i bytes of data, and the chain id
  // and the balance of a fresh address in between. The chain says what each must be.
  const from = '0x000000000000000000000000000000000000c0de'
  const to = '0x000000000000000000000000000000000000bEEF'
  const requests = Array.from({ length: 100 }, (_, i) =>
    i % 10 === 0 ? { method: 'eth_chainId' } : { method: 'eth_estimateGas', params: [{ from, to, data: toHex(new Uint8Array(i).fill(1)) }] },
  )
  // One after another: the proxy serves one address at most 2 requests at once and 32 waiting, and
  // this reference is not what is under test (under CI load, 90 at once ran out of retries on 429).
  const expected: string[] = []
  for (const [i, r] of requests.entries())
    expected.push(r.method === 'eth_chainId' ? '0x7a69' : numberToHex(await chain.estimateGas({ account: from, to, data: toHex(new Uint8Array(i).fill(1)) })))
  expect(new Set(expected).size).toBe(91) // 90 distinct gas figures and the chain id
  const answers = await page.evaluate(
    (all) => Promise.all(all.map((r) => window.WalletKit!.kit!.provider.request(r as never).catch((e: { code: number }) => `error ${e.code}`))),
    requests,
  )
  expect(answers).toEqual(expected)
})
