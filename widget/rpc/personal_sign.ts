import { isHex, stringToHex } from 'viem'
import { addressParam, hexParam, invalid, positional, requireAccount } from './guards.ts'
import type { RpcHandler } from './types.ts'

/** Hex with an odd number of digits is no whole number of bytes: padding it would sign bytes nobody was shown. */
function bytesParam(value: unknown): `0x${string}` {
  const hex = hexParam(value, 'message')
  if (hex.length % 2 !== 0) throw invalid('message must be whole bytes (an even number of hex digits) or plain text')
  return hex
}

export const personal_sign: RpcHandler = (ctx, params) => {
  const [rawData, rawAddress] = positional(params, 2, 3)
  const address = addressParam(rawAddress, 'address')
  // Like other wallets, accept a plain string as well as hex bytes; either way the bytes are what is signed.
  const bytes = typeof rawData === 'string' && !isHex(rawData) ? stringToHex(rawData) : bytesParam(rawData)
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
