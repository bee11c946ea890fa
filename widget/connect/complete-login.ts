import type { LoginResult, WalletCreationResult } from '../../sdk/index.ts'
import type { WidgetContext } from '../context.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Of the addresses a login returns ({network, address} pairs), the evm entry is used. */
const evmAddress = (list: readonly { network: string; address: string }[] | undefined) =>
  list?.find((a) => a.network === 'evm')?.address as `0x${string}` | undefined

/**
 * A user with a wallet is connected after the post-login delay (200 ms for a social login,
 * 500 ms for OTP and username) and the modal closes; a new user gets a wallet created and sees
 * the wallet-created page.
 */
export async function completeLogin({ wallet, client }: Pick<WidgetContext, 'wallet' | 'client'>, login: LoginResult, postLoginDelayMs: number): Promise<void> {
  if (login.isWalletCreated && login.walletToken) {
    // The sdk put the tokens in the session owner, which stored them once (session-owner.ts).
    const session = await wallet.loggedIn()
    await sleep(postLoginDelayMs)
    wallet.announce(session)
    wallet.close()
    return
  }
  if (!login.accessToken) throw new Error('The service returned no access token')
  const created: WalletCreationResult = await client.account.create({ accessToken: login.accessToken })
  if (!evmAddress(created.address)) throw new Error('The service returned no evm address')
  await wallet.loggedIn()
  wallet.showSecret(created.secret0)
  wallet.navigate('wallet-created')
}
