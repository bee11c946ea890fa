import { createTestClient, http, publicActions, type Address } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { RunningChain } from './local-chains.ts'

/**
 * anvil's default dev accounts, derived from the mnemonic every Foundry and Hardhat tutorial
 * prints. Their keys are public, so they may hold no funds and no roles: anvil is started with
 * `--accounts 0`, and chain state saved before that (an older data folder) is emptied at start.
 */
const publicMnemonic = 'test test test test test test test test test test test junk'
export const publicDevAddresses: readonly Address[] = Array.from(
  { length: 10 },
  (_, addressIndex) => mnemonicToAccount(publicMnemonic, { addressIndex }).address,
)

/** The admin client the sandbox itself uses on its chain (through the chain's loopback endpoint, never the public proxy). */
export const adminClient = (chain: RunningChain) =>
  createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl), pollingInterval: 50 }).extend(publicActions)

/** Sets the ETH balance of every well-known dev account to zero. */
export async function emptyPublicAccounts(chain: RunningChain): Promise<void> {
  const admin = adminClient(chain)
  for (const address of publicDevAddresses) {
    if ((await admin.getBalance({ address })) > 0n) await admin.setBalance({ address, value: 0n })
  }
}
