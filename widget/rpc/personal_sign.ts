import { stringToHex } from 'viem'
import { isHex, isHexBytes } from '../../bridge/rpc-params.ts'
import type { Account } from '../accounts/account.ts'
import { invalid } from './guards.ts'
import type { ConfirmationRequest } from './ports.ts'
import type { RpcHandler } from './types.ts'

export const personal_sign: RpcHandler<'personal_sign'> = (ctx, [data, address]) => {
  // Like other wallets, accept a plain string as well as hex bytes; either way the bytes are what is signed.
  // Hex with an odd number of digits is no whole number of bytes: padding it would sign bytes nobody was shown.
  if (isHex(data) && !isHexBytes(data)) throw invalid('message must be whole bytes (an even number of hex digits) or plain text')
  const bytes = isHex(data) ? data : stringToHex(data)
  return confirmMessage(ctx, ctx.signer(address), bytes, { rejected: 'Message signing rejected by user', failed: 'Failed to sign message' })
}

/**
 * Asks the user to sign `bytes` as a message with `account` (personal_sign, and wallet_connect's
 * sign-in): the modal is given the exact bytes and decides how to show them (confirm/presentation.ts).
 */
export const confirmMessage = (ctx: ConfirmationRequest, account: Account, bytes: `0x${string}`, texts: { rejected: string; failed: string }) =>
  ctx.confirmations.request({
    kind: 'message',
    payload: { from: account.address, chainId: account.chain.chainId, message: bytes },
    ...texts,
    onDevice: account.confirmsOnDevice,
    run: () => account.signMessage(bytes),
  })
