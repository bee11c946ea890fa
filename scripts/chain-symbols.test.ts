import { expect, test } from 'vitest'
// Lives in scripts/: host-sdk/ may import only bridge/, and this test compares the two sides.
import { chainTable } from '../sdk/chain-table.ts'
import { nativeSymbol } from '../host-sdk/chains.ts'

// The host script keeps a compact copy of the native symbols (viem's chain objects would not fit
// its size budget); this test keeps the copy equal to the sdk's chain table (sdk/chain-table.ts: viem's chain objects).
test.each(chainTable.map(({ slug, chain }) => [slug, chain.id, chain.nativeCurrency.symbol] as const))(
  "the balance of %s (%i) is shown in viem's native symbol %s",
  (_slug, id, symbol) => {
    expect(nativeSymbol(id)).toBe(symbol)
  },
)

test('the local chains and any chain outside the table show ETH', () => {
  expect([31337, 31338, 999_999].map(nativeSymbol)).toEqual(['ETH', 'ETH', 'ETH'])
})
