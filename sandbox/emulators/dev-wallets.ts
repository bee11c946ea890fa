import { Hono } from 'hono'
import { isAddress } from 'viem'
import type { Deps } from '../context.ts'
import { fail, readJson } from '../http/exchange.ts'
import { setPermissionByAddress } from '../services/wallet/queries.ts'

/**
 * Developer switches for wallets, next to the dev inbox: take a wallet's signing permission away
 * (or give it back) to try the kit's need-permission flow. Local only, like the rest of /dev.
 */
export function devWalletRoutes(deps: Deps) {
  return new Hono().post('/api/wallets/:address/permission', async (c) => {
    const address = c.req.param('address')
    const body = await readJson(c)
    if (!isAddress(address, { strict: false })) return fail(c, 400, 'Invalid address')
    if (typeof body.granted !== 'boolean') return fail(c, 400, 'granted must be a boolean')
    if (!(await setPermissionByAddress(deps.store, address, body.granted))) return fail(c, 404, 'Wallet not found')
    return c.json({ address, isPermissionGranted: body.granted })
  })
}
