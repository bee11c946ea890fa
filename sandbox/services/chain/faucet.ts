import { bytesToHex, createWalletClient, http, parseEther, publicActions, type Address, type Hash } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import type { RunningChain } from '../../infra/anvil/local-chains.ts'
import { loadArtifact } from '../../contracts/artifacts.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import { viemChainOf } from '../../contracts/viem-chain.ts'

import { adminClient } from '../../infra/anvil/public-accounts.ts'

/**
 * The faucet's account, from the sandbox's own key (Keys.faucetKey, kept in the data folder). It is
 * also the only minter of the demo tokens.
 */
export const faucetAccountOf = (faucetKey: Uint8Array): PrivateKeyAccount => privateKeyToAccount(bytesToHex(faucetKey))

/** What a faucet account starts with on a chain that has never seen it (what anvil's account 0 used to hold). */
export const faucetStartingBalance = parseEther('10000')

/**
 * Gives the faucet its starting ETH on a chain where its key has never been used (no balance, no
 * transaction sent): a fresh chain, or an older data folder whose faucet was anvil's account 0.
 */
export async function fundNewFaucet(chain: RunningChain, faucet: PrivateKeyAccount): Promise<void> {
  const admin = adminClient(chain)
  const [balance, nonce] = await Promise.all([admin.getBalance({ address: faucet.address }), admin.getTransactionCount({ address: faucet.address })])
  if (balance === 0n && nonce === 0) await admin.setBalance({ address: faucet.address, value: faucetStartingBalance })
}

/** What every new wallet gets on each local chain. */
export const faucetGifts = {
  eth: parseEther('10'),
  demoToken: parseEther('1000'),
  /** One DemoNft, the next id. */
  nfts: 1,
  /** DemoMultiToken id → amount. */
  multiTokens: [
    [1n, 10n],
    [2n, 5n],
  ],
} as const

/** What the faucet can pay out: ETH, or the DemoToken, on one local chain. */
export type FaucetAsset = 'ETH' | 'DEMO'

/**
 * What payouts must leave in the faucet account on each chain. Two levels: gifts nobody is owed (an
 * on-ramp payout, the sandbox mobile wallet's gift) stop at `eth`, so new wallets can still be
 * funded however many orders are paid (a wallet's gift is 10 ETH: 1,000 ETH funds 100 more
 * sign-ups); sign-up gifts stop at `ethForGas`, which nothing takes: the faucet's own gas.
 */
export type FaucetReserve = {
  /** ETH left after a payout and its gas (a DEMO payout's gas comes out of ETH too). */
  eth: bigint
  /**
   * ETH no payout takes, not even a sign-up's gift: the gas of the faucet's own mints and transfers.
   * A sign-up on a chain where the gift would break it creates the wallet unfunded there.
   */
  ethForGas: bigint
  /** DEMO left after a payout. The faucet is the token's minter, so it mints to keep this rather than refuse. */
  demo: bigint
}

export const defaultFaucetReserve: FaucetReserve = { eth: parseEther('1000'), ethForGas: parseEther('10'), demo: parseEther('1000000') }

/** pay() refused: the payout would take the faucet below its reserve. */
export class FaucetLowError extends Error {
  override readonly name = 'FaucetLowError'
  constructor(chainId: number) {
    super(`The sandbox faucet is low on funds on chain ${chainId}`)
  }
}

/** What fund() did: the chains it sent nothing on, the faucet being dry there. */
export type Funding = { dryChains: number[] }

export type Faucet = {
  /**
   * A new wallet's gifts on every chain. `keepReserve`: a gift nobody is owed (the sandbox mobile
   * wallet's) is refused with FaucetLowError, sending nothing, when it would take the faucet below
   * its reserve. A sign-up's gift (no `keepReserve`) may use the reserve, which is kept for it, but
   * never `ethForGas`: on a chain where it would, nothing is sent and the chain is in `dryChains`.
   * Each chain's balance is checked in its queue, so concurrent sign-ups cannot each see the same one.
   */
  fund(address: Address, options?: { keepReserve?: boolean }): Promise<Funding>
  /**
   * Sends `amount` (base units) of `asset` to `to` on `chainId` and waits for the receipt: the
   * hosted on-ramp's payout. DEMO is transferred from the faucet's own balance, topped up by
   * minting when short, so the buyer sees an ordinary transfer from the ramp's account.
   * Rejects with FaucetLowError, sending nothing, when the payout would break the reserve.
   */
  pay(options: { chainId: number; to: Address; asset: FaucetAsset; amount: bigint }): Promise<Hash>
}

/** How much DEMO the faucet mints for itself, beyond the reserve, when its balance cannot cover a payout. */
const demoTopUp = parseEther('1000000')

/**
 * ETH set aside for a payout's gas when checking the reserve: a transfer, or a mint and a transfer,
 * cost well under 0.001 ETH at anvil's fees; ten times that leaves room for fee spikes.
 */
const payoutGas = parseEther('0.01')

export function createFaucet(chains: readonly RunningChain[], faucetAccount: PrivateKeyAccount, reserveOverrides: Partial<FaucetReserve> = {}): Faucet {
  const faucetAddress = faucetAccount.address
  const reserve = { ...defaultFaucetReserve, ...reserveOverrides }
  const token = loadArtifact('DemoToken').abi
  const nft = loadArtifact('DemoNft').abi
  const multi = loadArtifact('DemoMultiToken').abi
  const perChain = chains.map((chain) => {
    const client = createWalletClient({ account: faucetAccount, chain: viemChainOf(chain), transport: http(chain.rpcUrl), pollingInterval: 50 }).extend(
      publicActions,
    )
    const settle = async (hashes: Hash[]) => {
      const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash, pollingInterval: 50 })))
      const failed = receipts.find((receipt) => receipt.status !== 'success')
      if (failed) throw new Error(`Faucet transaction ${failed.transactionHash} reverted on chain ${chain.chainId}`)
    }
    const gifts = async (to: Address) => {
      // Sent one after another (one nonce each), then awaited together: anvil mines each on arrival.
      const hashes: Hash[] = [await client.sendTransaction({ to, value: faucetGifts.eth })]
      hashes.push(await client.writeContract({ address: demoContracts.demoToken.address, abi: token, functionName: 'mint', args: [to, faucetGifts.demoToken] }))
      hashes.push(await client.writeContract({ address: demoContracts.demoNft.address, abi: nft, functionName: 'mint', args: [to] }))
      for (const [id, amount] of faucetGifts.multiTokens)
        hashes.push(await client.writeContract({ address: demoContracts.demoMultiToken.address, abi: multi, functionName: 'mint', args: [to, id, amount] }))
      await settle(hashes)
    }
    const pay = async (to: Address, asset: FaucetAsset, amount: bigint): Promise<Hash> => {
      // Checked inside the chain's queue, so concurrent payouts cannot each see the same balance.
      const eth = await client.getBalance({ address: faucetAddress })
      if (eth - (asset === 'ETH' ? amount : 0n) - payoutGas < reserve.eth) throw new FaucetLowError(chain.chainId)
      if (asset === 'ETH') {
        const hash = await client.sendTransaction({ to, value: amount })
        await settle([hash])
        return hash
      }
      const demoToken = demoContracts.demoToken.address
      const held = await client.readContract({ address: demoToken, abi: token, functionName: 'balanceOf', args: [faucetAddress] })
      const shortBy = reserve.demo + amount - (held as bigint)
      if (shortBy > 0n)
        await settle([await client.writeContract({ address: demoToken, abi: token, functionName: 'mint', args: [faucetAddress, shortBy + demoTopUp] })])
      const hash = await client.writeContract({ address: demoToken, abi: token, functionName: 'transfer', args: [to, amount] })
      await settle([hash])
      return hash
    }
    // One job at a time per chain: concurrent sends from one account would race for the same nonce.
    let queue: Promise<unknown> = Promise.resolve()
    const enqueue = <result>(job: () => Promise<result>): Promise<result> => {
      const run = queue.then(job)
      queue = run.catch(() => {})
      return run
    }
    /** Whether a wallet's gifts (and their gas) leave at least `floor`. */
    const canGift = async (floor: bigint) => (await client.getBalance({ address: faucetAddress })) - faucetGifts.eth - payoutGas >= floor
    /** The gifts, unless they would break `floor`: then nothing is sent and the answer is false. */
    const giftWithin = async (to: Address, floor: bigint) => {
      if (!(await canGift(floor))) return false
      await gifts(to)
      return true
    }
    return { chainId: chain.chainId, enqueue, giftWithin, pay, canGift }
  })
  return {
    async fund(address, options = {}) {
      const floor = options.keepReserve ? reserve.eth : reserve.ethForGas
      if (options.keepReserve) {
        const low = (await Promise.all(perChain.map(async (entry) => ((await entry.canGift(floor)) ? null : entry.chainId)))).find((id) => id !== null)
        if (low !== undefined && low !== null) throw new FaucetLowError(low)
      }
      const sent = await Promise.all(perChain.map((entry) => entry.enqueue(() => entry.giftWithin(address, floor))))
      const dryChains = perChain.filter((_, i) => !sent[i]).map((entry) => entry.chainId)
      // A payout nobody is owed that lost a race for the last of the reserve (checked above, outside the queues).
      if (options.keepReserve && dryChains.length) throw new FaucetLowError(dryChains[0]!)
      return { dryChains }
    },
    pay({ chainId, to, asset, amount }) {
      const entry = perChain.find((candidate) => candidate.chainId === chainId)
      if (!entry) return Promise.reject(new Error(`No local chain ${chainId}`))
      return entry.enqueue(() => entry.pay(to, asset, amount))
    },
  }
}
