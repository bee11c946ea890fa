import { describe, expect, test } from 'vitest'
import * as viemChains from 'viem/chains'
import { smartAccountChainNames } from './chain-names.ts'
import { chainConfigOf, chainOfSlug, chainTable } from './chain-table.ts'

const address = /^0x[0-9a-fA-F]{40}$/
const viemChainList = Object.values(viemChains) as { id: number }[]

describe('the chain table: the public chains an app may offer, by slug', () => {
  test('about 33 chains, mainnets and testnets, each slug and id once', () => {
    expect(chainTable).toHaveLength(33)
    expect(new Set(chainTable.map((e) => e.slug)).size).toBe(chainTable.length)
    expect(new Set(chainTable.map((e) => e.chain.id)).size).toBe(chainTable.length)
    const testnets = chainTable.filter((e) => e.chain.testnet === true)
    expect(testnets.length).toBeGreaterThan(10)
    expect(chainTable.length - testnets.length).toBeGreaterThan(10)
    for (const { slug } of chainTable) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })

  test.each([
    ['ethereum', 1],
    ['bnb', 56],
    ['polygon', 137],
    ['arbitrum', 42161],
    ['optimism', 10],
    ['base', 8453],
    ['sepolia', 11155111],
    ['holesky', 17000],
  ])("SPEC's example %s is chain %i", (slug, id) => {
    expect(chainOfSlug(slug)?.chain.id).toBe(id)
  })

  test("every entry is viem's own chain object, with a name, native currency, default RPC, explorer and Multicall3", () => {
    for (const { slug, chain } of chainTable) {
      // The very object viem exports: nothing in the table is a copied value.
      expect(viemChainList, slug).toContain(chain)
      const config = chainConfigOf({ slug, chain })
      expect(config.chainId).toBe(chain.id)
      expect(config.name.length, slug).toBeGreaterThan(0)
      expect(config.nativeCurrency.decimals, slug).toBe(18)
      expect(config.nativeCurrency.symbol.length, slug).toBeGreaterThan(0)
      expect(config.rpcUrls.length, slug).toBeGreaterThan(0)
      for (const url of config.rpcUrls) expect(new URL(url).protocol, slug).toBe('https:')
      expect(new URL(config.blockExplorers!.default.url).protocol, slug).toBe('https:')
      expect(config.contracts?.multicall3?.address, slug).toMatch(address)
      expect(config.network).toBe(slug)
      expect(config.testnet).toBe(chain.testnet === true)
    }
  })

  test('an app config entry is a copy: changing it changes nothing in viem', () => {
    const entry = chainOfSlug('sepolia')!
    const before = JSON.stringify(entry.chain)
    const config = chainConfigOf(entry)
    config.rpcUrls.push('https://evil.example')
    config.nativeCurrency.symbol = 'EVIL'
    config.blockExplorers!.default.url = 'https://evil.example'
    expect(JSON.stringify(entry.chain)).toBe(before)
    expect(chainConfigOf(entry).rpcUrls).not.toContain('https://evil.example')
  })

  test.each([
    ['__proto__'],
    ['constructor'],
    ['toString'],
    ['hasOwnProperty'],
    ['local-1'],
    ['Sepolia'],
    [' sepolia'],
    ['sepolia '],
    [''],
    [1],
    [null],
    [undefined],
    [{}],
    [['sepolia']],
  ])('no chain for %j', (slug) => {
    expect(chainOfSlug(slug)).toBeUndefined()
  })

  test("the smart-account names are SPEC's, each for a chain of the table", () => {
    expect(smartAccountChainNames).toEqual({ 1: 'Ethereum', 137: 'Polygon', 56: 'BSC', 8453: 'Base', 17000: 'Holesky', 11155111: 'Sepolia' })
    const ids = chainTable.map((e) => e.chain.id)
    for (const id of Object.keys(smartAccountChainNames)) expect(ids).toContain(Number(id))
  })
})
