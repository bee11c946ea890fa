import { Hono } from 'hono'
import { createPublicClient, http, isAddress } from 'viem'
import type { Deps } from '../../context.ts'
import { onlyFields, readJson, fail } from '../../http/exchange.ts'
import { clientIp, ipKey } from '../../http/rate-limit.ts'
import { serveAsset, serveBuiltFile } from '../../http/static.ts'
import { FaucetLowError } from '../../services/chain/faucet.ts'
import { relayPath, sandboxProjectId } from '../../services/walletconnect/config.ts'

/**
 * The sandbox's mobile wallet (/dev/wallet): a WalletKit page built into dist/dev-wallet, its
 * settings, and its one-time funding by the faucet. Development only, like the rest of /dev.
 */
export function devWalletPageRoutes(deps: Deps) {
  /** Addresses whose gift is being sent: a second call meanwhile must not see a zero balance and pay again. */
  const funding = new Set<string>()
  /** Reads the first chain (has an address had its gift?). */
  const firstChain = deps.chains[0] && createPublicClient({ transport: http(deps.chains[0].rpcUrl) })
  const index = (c: Parameters<typeof serveAsset>[0]) => {
    const { host, protocol } = new URL(c.req.url)
    return serveBuiltFile(c, deps.distDir, 'dev-wallet/index.html', {
      'Content-Security-Policy': [
        "default-src 'self'",
        "img-src 'self' data:",
        `connect-src 'self' ${protocol === 'https:' ? 'wss' : 'ws'}://${host}`,
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
      // Its address may carry a pairing URI (?uri=): it goes nowhere else.
      'Referrer-Policy': 'no-referrer',
    })
  }
  return new Hono()
    .get('/wallet', (c) => c.redirect(`/dev/wallet/${new URL(c.req.url).search}`, 302))
    .get('/wallet/', index)
    .get('/wallet/index.html', index)
    .get('/wallet/assets/*', (c) => serveAsset(c, deps.distDir, 'dev-wallet', c.req.path.slice('/dev/wallet/assets/'.length)))
    .get('/api/wallet-config', (c) =>
      c.json({
        relayPath,
        projectId: sandboxProjectId,
        chains: deps.chains.map((chain) => ({ chainId: chain.chainId, name: chain.name, rpcPath: `/rpc/${chain.chainId}` })),
      }),
    )
    .post('/api/wallets/:address/fund', async (c) => {
      const address = c.req.param('address')
      // Only the wallet page itself (or a script on this machine, with no Origin): another site
      // cannot spend the faucet for the addresses it likes. The JSON body keeps plain forms out too.
      const origin = c.req.header('origin')
      if (origin !== undefined && !deps.ownOrigins().includes(origin)) return fail(c, 403, 'Only the sandbox wallet page may ask for funds')
      if (c.req.header('content-type') === undefined) return fail(c, 415, 'Content-Type must be application/json')
      // The gift takes no input but the address: a body with anything in it is not this call.
      onlyFields(await readJson(c), [])
      if (!isAddress(address, { strict: false })) return fail(c, 400, 'Invalid address')
      const key = address.toLowerCase()
      if (funding.has(key)) return fail(c, 409, 'Already funded')
      deps.limiter.hit('walletGiftsPerIp', ipKey(clientIp(c)))
      // Once per wallet: an address that holds anything on the first chain has had its gift.
      if (!firstChain) return fail(c, 503, 'No chain')
      funding.add(key)
      try {
        const balance = await firstChain.getBalance({ address })
        if (balance > 0n) return fail(c, 409, 'Already funded')
        await deps.faucet.fund(address, { keepReserve: true })
        return c.json({ address, funded: true })
      } catch (error) {
        if (error instanceof FaucetLowError) return fail(c, 503, error.message)
        throw error
      } finally {
        funding.delete(key)
      }
    })
}
