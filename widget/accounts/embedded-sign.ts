import { hashMessage, isHex } from 'viem'
import type { WidgetClient } from '../service-client.ts'
import { describeMessage } from '../confirm/message-display.ts'

/**
 * personal_sign for the embedded wallet. The service reads a 0x-hex message as bytes, so only plain
 * readable text goes as text; anything else as the EIP-191 hash of the exact bytes. Both sign the
 * same bytes. Loaded with the first signature (viem's hashing is not part of the frame's first chunk).
 */
export async function signMessage(client: Pick<WidgetClient, 'wallet'>, network: string, bytes: `0x${string}`): Promise<`0x${string}`> {
  const view = describeMessage(bytes)
  const asText = view.as === 'text' && view.warning === null && !isHex(view.shown)
  const { signature } = asText
    ? await client.wallet.signMessage({ network, message: view.shown })
    : await client.wallet.signHash({ network, hash: hashMessage({ raw: bytes }) })
  return signature as `0x${string}`
}
