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
  const expected = await Promise.all(
    requests.map((r, i) =>
      r.method === 'eth_chainId' ? '0x7a69' : chain.estimateGas({ account: from, to, data: toHex(new Uint8Array(i).fill(1)) }).then((gas) => numberToHex(gas)),
    ),
  )
  expect(new Set(expected).size).toBe(91) // 90 distinct gas figures and the chain id
  const answers = await page.evaluate(
    (all) => Promise.all(all.map((r) => window.WalletKit!.kit!.provider.request(r as never).catch((e: { code: number }) => `error ${e.code}`))),
    requests,
  )
  expect(answers).toEqual(expected)
})
