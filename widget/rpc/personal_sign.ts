import { stringToHex } from 'viem'
import { isHex, isHexBytes } from '../../bridge/rpc-params.ts'
import { invalid, requireAccount } from './guards.ts'
import type { RpcHandler } from './types.ts'

export const personal_sign: RpcHandler<'personal_sign'> = (ctx, [data, address]) => {
  // Like other wallets, accept a plain string as well as hex bytes; either way the bytes are what is signed.
  // Hex with an odd number of digits is no whole number of bytes: padding it would sign bytes nobody was shown.
  if (isHex(data) && !isHexBytes(data)) throw invalid('message must be whole bytes (an even number of hex digits) or plain text')
  const bytes = isHex(data) ? data : stringToHex(data)
  const account = requireAccount(ctx, address)
  return ctx.confirmations.request({
    kind: 'message',
    // The exact bytes; the modal decides how to show them (confirm/message-display.ts).
    payload: { from: account.address, chainId: account.chain.chainId, message: bytes },
    rejected: 'Message signing rejected by user',
    failed: 'Failed to sign message',
    onDevice: account.confirmsOnDevice,
    run: () => account.signMessage(bytes),
  })
}
