import { expect, test } from '@playwright/test'
import { signUp } from './flows.ts'

/**
 * Another frame of the host page (an ad, a widget of another origin: here a data: frame) forges the
 * bridge's handshake towards the page itself: a SYN under a new participant id (what a reloaded
 * wallet frame sends), an ACK1 and a REPLY. The kit reads handshake messages only from its own
 * frame's window and the provider's origin (host-sdk/connection.ts); were it to take them, the SYN
 * alone would cancel every pending request ('the wallet frame reloaded') and restart the channel,
 * so a request waiting for the user's confirmation is the witness. The wallet frame's own side of
 * the same attack (the data: frame posting to it) is in identity-token.spec.ts.
 */
test('a forged handshake from another frame of the page cancels nothing: a pending request stays pending, the kit still answers', async ({ page, request }) => {
  const address = await signUp(page, request)
  const outcome = await page.evaluate(
    (address) =>
      new Promise<{ sign: string; attacker: { pong: boolean; posted: number } }>((resolve) => {
        let sign = 'pending'
        window.WalletKit!.kit!.provider.request({ method: 'personal_sign', params: ['0x6869', address] as never }).then(
          () => (sign = 'signed'),
          (e: Error) => (sign = `rejected: ${e.message}`),
        )
        const attacker = document.createElement('iframe')
        attacker.src = `data:text/html,${encodeURIComponent(`<script>
          let pong = false
          let posted = 0
          addEventListener('message', (e) => { if (e.source === parent && e.data === 'pong') pong = true })
          parent.postMessage('ping', '*')
          for (const participantId of ['ffffffff-forged-0000-0000-000000000000', 'zzzzzzzz']) {
            parent.postMessage({ namespace: 'penpal', type: 'SYN', participantId }, '*')
            parent.postMessage({ namespace: 'penpal', type: 'ACK1' }, '*')
            parent.postMessage({ namespace: 'penpal', type: 'REPLY', callId: 1, value: { result: ['0x0000000000000000000000000000000000000bad'] } }, '*')
            posted += 3
          }
          setTimeout(() => parent.postMessage({ attacker: { pong, posted } }, '*'), 1500)
        </script>`)}`
        addEventListener('message', (e) => {
          if (e.data === 'ping') (e.source as Window).postMessage('pong', '*')
          else if (e.data && typeof e.data === 'object' && 'attacker' in e.data) resolve({ sign, attacker: e.data.attacker })
        })
        document.body.append(attacker)
      }),
    address,
  )
  // The attacker ran, could talk to the page, and posted its messages; the request waiting for the user was not touched.
  expect(outcome.attacker).toEqual({ pong: true, posted: 6 })
  expect(outcome.sign).toBe('pending')
  // The kit still answers, over the channel it had.
  const token = await page.evaluate(() => window.WalletKit!.kit!.getIdentityToken().then((t) => t.identityToken))
  expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
})
