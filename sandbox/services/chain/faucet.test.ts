// The faucet against sign-ups that would drain it: every payout keeps a floor of ETH in the faucet
// account; a sign-up on a dry chain still creates the wallet, unfunded there, and says so.
import { createPublicClient, createTestClient, http, parseEther, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { defaultFaucetReserve, faucetGifts } from './faucet.ts'

let sandbox: TestSandbox
const admin = (index: number) => createTestClient({ mode: 'anvil', transport: http(sandbox.chains[index]!.rpcUrl) })
const balanceOf = (index: number, address: Address) => createPublicClient({ transport: http(sandbox.chains[index]!.rpcUrl) }).getBalance({ address })

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

describe('faucet reserve on sign-up', () => {
  test('a dry faucet: sign-up still creates the wallet, unfunded on the dry chain, funded on the other, and says the faucet is dry', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    await admin(0).setBalance({ address: sandbox.faucetAddress, value: parseEther('3') })
    try {
      const { verificationToken, code } = await sandbox.requestCode('dry-faucet@example.com')
      const login = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
      const created = await sandbox.post('/api/v2/account/create', {}, login.body.data.accessToken)
      expect(created.status, JSON.stringify(created.body)).toBe(200)
      const address = created.body.data.address[0].address as Address
      expect(created.body.data).toMatchObject({ walletToken: expect.any(String), secret0: expect.any(String) })
      expect(created.body.data.faucet).toEqual({
        dryChains: [31337],
        message: 'The sandbox faucet is dry on chain 31337: the wallet was created without test funds there',
      })
      expect(await balanceOf(0, address)).toBe(0n)
      expect(await balanceOf(1, address)).toBe(faucetGifts.eth)
      expect(await balanceOf(0, sandbox.faucetAddress)).toBe(parseEther('3'))
      expect(warn.mock.calls.flat().join(' ')).toContain('faucet is dry on chain 31337')
      // The wallet is a wallet: its session works.
      const again = await sandbox.post('/api/v2/account/create', {}, login.body.data.accessToken)
      expect(again.body.message).toBe('Wallet already created')
    } finally {
      warn.mockRestore()
    }
  })

  test('sign-ups never take the faucet below its floor, even many at once; a funded sign-up says nothing about the faucet', async () => {
    const floor = defaultFaucetReserve.ethForGas
    // Room for exactly two gifts (and their gas) above the floor.
    await admin(0).setBalance({ address: sandbox.faucetAddress, value: floor + 2n * faucetGifts.eth + parseEther('0.05') })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const users = await Promise.all(
        Array.from({ length: 5 }, async (_, i) => {
          const { verificationToken, code } = await sandbox.requestCode(`rush-${i}@example.com`)
          const login = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
          return sandbox.post('/api/v2/account/create', {}, login.body.data.accessToken)
        }),
      )
      expect(users.map((user) => user.status)).toEqual([200, 200, 200, 200, 200])
      const funded = users.filter((user) => user.body.data.faucet === undefined)
      expect(funded).toHaveLength(2)
      for (const user of funded) expect(await balanceOf(0, user.body.data.address[0].address)).toBe(faucetGifts.eth)
      expect(await balanceOf(0, sandbox.faucetAddress)).toBeGreaterThanOrEqual(floor)
    } finally {
      warn.mockRestore()
      await admin(0).setBalance({ address: sandbox.faucetAddress, value: parseEther('10000') })
    }
  })
})
