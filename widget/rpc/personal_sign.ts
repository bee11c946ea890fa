import { hashMessage, hexToString, isHex } from 'viem'
import { addressParam, hexParam, positional, requireSession } from './guards.ts'
import type { RpcHandler } from './types.ts'

/** Bytes that are readable text are shown and signed as text; anything else as raw bytes. */
function asText(data: `0x${string}`): string | null {
  try {
    const text = hexToString(data)
    return new TextEncoder().encode(text).length === (data.length - 2) / 2 && !/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text)
      ? text
      : null
  } catch {
    return null
  }
}

export const personal_sign: RpcHandler = (ctx, params) => {
  const [rawData, rawAddress] = positional(params, 2, 3)
  const address = addressParam(rawAddress, 'address')
  // Like other wallets, accept a plain string as well as hex bytes.
  const data = typeof rawData === 'string' && !isHex(rawData) ? rawData : hexParam(rawData, 'message')
  const session = requireSession(ctx, address)
  const text = isHex(data) ? asText(data) : data
  const network = session.chain.network
  return ctx.confirmations.request({
    kind: 'message',
    payload: { from: session.address, chainId: session.chainId, message: text ?? data },
    rejected: 'Message signing rejected by user',
    failed: 'Failed to sign message',
    // The service reads a 0x-hex message as bytes, so text that looks like hex goes as a hash too.
    run: async () =>
      text !== null && !isHex(text)
        ? (await ctx.client.wallet.signMessage({ network, message: text })).signature
        : // EIP-191 over the exact bytes: the service signs the prefixed hash as given.
          (await ctx.client.wallet.signHash({ network, hash: hashMessage(isHex(data) ? { raw: data } : data) })).signature,
  })
}
