// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { resolveContext, type Context } from '../../sdk/config.ts'
import { PasskeyNotMade } from '../connect/passkey-ceremony.ts'
import { renderProfileWidget } from '../profile/profile.fixture.tsx'
import type { SecureState } from '../secure/secure-handle.ts'
import { createStore } from '../store.ts'
import { transactionStepUpText } from './transaction-step-up-text.ts'

// A transaction's step-up with a passkey, on a scripted wallet service with the browser's ceremony
// played here: started for the transaction's hash with both factors, the assertion sent from a click,
// its proof handed on; a refused assertion leaves a new step-up one click away, a cancel sends nothing.

let ceremony: 'answer' | 'cancel' = 'answer'
vi.mock('../connect/passkey-ceremony.ts', async (original) => ({
  ...(await original<typeof import('../connect/passkey-ceremony.ts')>()),
  getPasskey: async () => {
    if (ceremony === 'cancel') throw new PasskeyNotMade('cancelled')
    return credential
  },
}))
const { TransactionStepUp } = await import('./TransactionStepUp.tsx')
afterEach(cleanup)

let show = () => {}
function Later(props: { request: `0x${string}`; onProof(proof: string): void }) {
  const [shown, setShown] = useState(false)
  show = () => setShown(true)
  return shown ? <TransactionStepUp request={props.request} onProof={props.onProof} onCancel={() => {}} /> : null
}

const text = transactionStepUpText.en
const request = `0x${'ab'.repeat(32)}` as const
const credential = { id: 'cred-1', type: 'public-key', response: { clientDataJSON: 'e30' } }
const options = { challenge: 'Y2hhbGxlbmdl', allowCredentials: [{ id: 'cred-1', type: 'public-key' }] }
const envelope = (status: number, data: unknown) =>
  new Response(JSON.stringify({ status, message: status === 200 ? 'OK' : 'Passkey not verified', data }), {
    status,
    headers: { 'content-type': 'application/json' },
  })

async function renderStep(verifyStatus = 200, secure: unknown = null) {
  const sent: { path: string; body: unknown }[] = []
  const proofs: string[] = []
  const client: { context?: Context } = {}
  const widget = await renderProfileWidget(<Later request={request} onProof={(p) => proofs.push(p)} />, { client, secure })
  client.context = resolveContext({
    appId: 'demo',
    baseUrls: { wallet: 'http://wallet.test/api/v2' },
    tokens: widget.owner.tokens,
    fetch: async (url, init) => {
      const path = String(url).replace('http://wallet.test/api/v2', '')
      sent.push({ path, body: JSON.parse(String(init?.body ?? '{}')) })
      if (path === '/auth/step-up/start')
        return envelope(200, { challengeId: `suc_${sent.length}`, factor: 'passkey', action: 'send-transaction', expiresAt: '2030-01-01T00:00:00Z', options })
      return verifyStatus === 200
        ? envelope(200, { stepUpProof: 'sup_tx', action: 'send-transaction', expiresAt: '2030-01-01T00:00:00Z' })
        : envelope(verifyStatus, null)
    },
  })
  // Shown once the service is scripted: the step-up starts as soon as it is shown.
  await act(async () => show())
  return { sent, proofs }
}

const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })))

describe('a transaction confirmed with a passkey', () => {
  test('starts for the transaction with both factors and hands on the proof of the assertion', async () => {
    ceremony = 'answer'
    const { sent, proofs } = await renderStep()
    expect(sent).toEqual([{ path: '/auth/step-up/start', body: { action: 'send-transaction', request, factors: ['passkey', 'email'] } }])
    await click(text.passkeyButton)
    expect(sent[1]).toEqual({ path: '/auth/step-up/verify', body: { challengeId: 'suc_1', credential } })
    expect(proofs).toEqual(['sup_tx'])
  })

  test('a cancel sends nothing; a refused assertion says so and a new step-up is one click away', async () => {
    ceremony = 'cancel'
    const { sent, proofs } = await renderStep(400)
    await click(text.passkeyButton)
    expect(screen.getByRole('status').textContent).toBe(text.passkeyCancelled)
    expect(sent).toHaveLength(1)
    ceremony = 'answer'
    await click(text.passkeyButton)
    expect(screen.getByText('Passkey not verified')).toBeTruthy()
    expect(proofs).toEqual([])
    await click(text.tryAgain)
    expect(sent.map((s) => s.path)).toEqual(['/auth/step-up/start', '/auth/step-up/verify', '/auth/step-up/start'])
    expect(screen.getByRole('button', { name: text.passkeyButton })).toBeTruthy()
  })

  test("while the step is up, the frame's secure-window state says so (the window tells its user to answer here); not once it is gone", async () => {
    ceremony = 'answer'
    const state = createStore<SecureState>({ status: 'open', purpose: 'confirm' })
    await renderStep(200, { state })
    expect(state.get().askingStepUp).toBe(true)
    cleanup()
    expect(state.get().askingStepUp).toBe(false)
  })
})
