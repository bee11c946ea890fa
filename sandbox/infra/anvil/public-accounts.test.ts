import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  http,
  parseAbi,
  parseEther,
  publicActions,
  type Address,
  type Hex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { demoContracts } from '../../contracts/deploy.ts'
import { createSandbox } from '../../server.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

/**
 * The attack: anvil's dev accounts come from a mnemonic printed in every tutorial. Whoever holds
 * their keys signs raw transactions and sends them through the public /rpc proxy (which must accept
 * eth_sendRawTransaction): draining the faucet stops every sign-up, and the DEMO minter role mints
 * without limit. No key that is public may hold funds or a role.
 */
const publicMnemonic = 'test test test test test test test test test test test junk'
const publicAccounts = Array.from({ length: 10 }, (_, addressIndex) => mnemonicToAccount(publicMnemonic, { addressIndex }))
const attacker: Address = '0x00000000000000000000000000000000000a77ac'
const minterAbi = parseAbi(['function minter() view returns (address)', 'function mint(address to, uint256 amount)'])

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
}, 60_000)
afterAll(() => sandbox?.dispose())

const publicRpc = (chainId: number) => http(`${sandbox.url}/rpc/${chainId}`)

describe.each([31337, 31338])('chain %i: no public key holds funds or roles', (chainId) => {
  const reader = () => createPublicClient({ transport: publicRpc(chainId) })

  test("anvil's well-known accounts hold no ETH, and none of them is the faucet", async () => {
    for (const account of publicAccounts) {
      expect(await reader().getBalance({ address: account.address })).toBe(0n)
      expect(account.address.toLowerCase()).not.toBe(sandbox.faucetAddress.toLowerCase())
    }
    // The faucet exists and is funded: it is the sandbox's own key.
    expect(await reader().getBalance({ address: sandbox.faucetAddress })).toBeGreaterThan(parseEther('1000'))
  })

  test('the demo tokens are minted only by the faucet, whose key is not public', async () => {
    for (const contract of [demoContracts.demoToken, demoContracts.demoNft, demoContracts.demoMultiToken]) {
      const minter = await reader().readContract({ address: contract.address, abi: minterAbi, functionName: 'minter' })
      expect(minter.toLowerCase()).toBe(sandbox.faucetAddress.toLowerCase())
      expect(publicAccounts.map((account) => account.address.toLowerCase())).not.toContain(minter.toLowerCase())
    }
  })

  test('a raw transfer or mint signed with a public key, sent through the public proxy, moves nothing', async () => {
    const faucetBefore = await reader().getBalance({ address: sandbox.faucetAddress })
    for (const account of publicAccounts.slice(0, 2)) {
      const wallet = createWalletClient({
        account,
        transport: publicRpc(chainId),
        chain: { id: chainId, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } },
      })
      await expect(wallet.sendTransaction({ to: attacker, value: parseEther('1') })).rejects.toThrow()
      await expect(
        wallet.writeContract({
          address: demoContracts.demoToken.address,
          abi: minterAbi,
          functionName: 'mint',
          args: [attacker, parseEther('1000000')],
          gas: 100_000n,
        }),
      ).rejects.toThrow()
    }
    expect(await reader().getBalance({ address: attacker })).toBe(0n)
    expect(await reader().readContract({ address: demoContracts.demoToken.address, abi: erc20Abi, functionName: 'balanceOf', args: [attacker] })).toBe(0n)
    expect(await reader().getBalance({ address: sandbox.faucetAddress })).toBe(faucetBefore)
  })
})

test('sign-ups are still funded by the faucet (10 ETH and 1,000 DEMO on each chain)', async () => {
  const wallet = await sandbox.signUp('public-keys@example.com')
  for (const chainId of [31337, 31338]) {
    const reader = createPublicClient({ transport: publicRpc(chainId) })
    expect(await reader.getBalance({ address: wallet.address })).toBe(parseEther('10'))
    expect(await reader.readContract({ address: demoContracts.demoToken.address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet.address] })).toBe(
      parseEther('1000'),
    )
  }
})

test("a data folder from when the faucet was anvil's account 0 is cleaned at start: the public accounts emptied, the minter moved, balances kept", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-kit-public-keys-'))
  const [oldFaucet] = publicAccounts
  const holder: Address = '0x00000000000000000000000000000000000b0b00'
  try {
    const first = await createSandbox({ port: 0, anvilPort: 0, dataDir })
    try {
      // Make the chain look as it did: account 0 funded and the token's minter (immutable, in its code).
      const chain = first.chains[0]!
      const admin = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).extend(publicActions)
      const token = demoContracts.demoToken.address
      const code = (await admin.getCode({ address: token }))!
      const faucetHex = first.faucetAddress.slice(2).toLowerCase()
      expect(code.toLowerCase()).toContain(faucetHex)
      await admin.setCode({ address: token, bytecode: code.toLowerCase().replaceAll(faucetHex, oldFaucet!.address.slice(2).toLowerCase()) as Hex })
      await admin.setBalance({ address: oldFaucet!.address, value: parseEther('10000') })
      await admin.impersonateAccount({ address: oldFaucet!.address })
      await admin.sendUnsignedTransaction({
        from: oldFaucet!.address,
        to: token,
        data: encodeFunctionData({ abi: minterAbi, functionName: 'mint', args: [holder, 5n] }),
      })
      await admin.stopImpersonatingAccount({ address: oldFaucet!.address })
      expect(await admin.readContract({ address: token, abi: minterAbi, functionName: 'minter' })).toBe(oldFaucet!.address)
    } finally {
      await first.close()
    }

    const second = await createSandbox({ port: 0, anvilPort: 0, dataDir })
    try {
      const reader = createPublicClient({ transport: http(`${second.url}/rpc/31337`) })
      expect(second.faucetAddress).toBe(first.faucetAddress)
      expect(await reader.getBalance({ address: oldFaucet!.address })).toBe(0n)
      expect(await reader.readContract({ address: demoContracts.demoToken.address, abi: minterAbi, functionName: 'minter' })).toBe(second.faucetAddress)
      expect(await reader.readContract({ address: demoContracts.demoToken.address, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })).toBe(5n)
    } finally {
      await second.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 60_000)
