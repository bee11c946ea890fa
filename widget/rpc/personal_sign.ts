import { hashMessage, isHex, stringToHex } from 'viem'
import { describeMessage } from '../confirm/message-display.ts'
import { addressParam, hexParam, invalid, positional, requireSession } from './guards.ts'
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
  const session = requireSession(ctx, address)
  const network = session.chain.network
  const view = describeMessage(bytes)
  return ctx.confirmations.request({
    kind: 'message',
    // The exact bytes; the modal decides how to show them (confirm/message-display.ts).
    payload: { from: session.address, chainId: session.chainId, message: bytes },
    rejected: 'Message signing rejected by user',
    failed: 'Failed to sign message',
    // The service reads a 0x-hex message as bytes, so only plain readable text goes as text; anything
    // else as the EIP-191 hash of the exact bytes. Both sign the same bytes.
    run: async () =>
      view.as === 'text' && view.warning === null && !isHex(view.shown)
        ? (await ctx.client.wallet.signMessage({ network, message: view.shown })).signature
        : (await ctx.client.wallet.signHash({ network, hash: hashMessage({ raw: bytes }) })).signature,
  })
}
