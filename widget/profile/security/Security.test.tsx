// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { parseEther } from 'viem'
import { useState } from 'react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Context } from '../../../sdk/config.ts'
import { thresholdChangeHash } from '../../../sdk/wallet/step-up-threshold.ts'
import { ceremony } from '../../connect/passkey-ceremony.fixture.ts'
import { renderProfileWidget, scriptedWalletService } from '../profile.fixture.tsx'
import { securityText } from './security-text.ts'

// The Security page on a scripted wallet service: a stricter amount is saved at once, a looser one
// (higher, or removed) only after the step-up (the user's passkey, else the e-mail code), with the
// proof bound to the change; a cancelled code or passkey changes nothing.

vi.mock('../../connect/passkey-ceremony.ts', async (real) => (await import('../../connect/passkey-ceremony.fixture.ts')).playCeremony(await real()))
const { Security } = await import('./Security.tsx')
const passkeyOptions = { challenge: 'c2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required', allowCredentials: [{ id: 'cred-1', type: 'public-key' }] }
const credential = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'e30' } }

afterEach(() => {
  cleanup()
  ceremony.asked.length = 0
  ceremony.next = { answer: credential }
})

/** Shows the page once the test has given the widget its service context (the page reads it on mount). */
let show = () => {}
function Later() {
  const [on, setOn] = useState(false)
  show = () => setOn(true)
  return on ? <Security /> : null
}

const text = securityText.en
const proof = `sup_${'P'.repeat(43)}`
const envelope = (status: number, message: string, data: unknown) =>
  new Response(JSON.stringify({ status, message, data }), { status, headers: { 'content-type': 'application/json' } })
const row = (user: string | null) => ({ chainId: 31337, network: 'local-1', symbol: 'ETH', decimals: 18, app: null, user, effective: user })

/** The page with the user's own amount `user` on Local Chain 1; every call it makes is recorded. */
async function renderPage(user: string | null, factor: 'email' | 'passkey' = 'email') {
  const sent: { method: string; path: string; body: Record<string, unknown> }[] = []
  let current = user
  const client: { context?: Context } = {}
  const widget = await renderProfileWidget(<Later />, { client })
  client.context = scriptedWalletService(widget.owner.tokens, ({ method, path, body }) => {
    sent.push({ method, path, body })
    // A user with a passkey and an e-mail: the passkey first, the code when asked for (factors ['email']).
    const asked = path === '/auth/step-up/start' && (body.factors as string[] | undefined)?.[0] === 'email' ? 'email' : factor
    if (path === '/auth/step-up/start')
      return envelope(200, 'OK', {
        challengeId: 'suc_1',
        factor: asked,
        ...(asked === 'passkey' && { otherFactors: ['email'] }),
        action: body.action,
        expiresAt: '2030-01-01T00:00:00Z',
        ...(asked === 'email' ? { sentTo: 'a•••@example.com' } : { options: passkeyOptions }),
      })
    if (path === '/auth/step-up/verify') return envelope(200, 'OK', { stepUpProof: proof, action: 'loosen-step-up', expiresAt: '2030-01-01T00:00:00Z' })
    if (method === 'PUT') current = body.amount as string
    if (method === 'DELETE') current = null
    return envelope(200, 'OK', { thresholds: [row(current)] })
  })
  await act(async () => show())
  await screen.findByTestId('security-31337')
  return { ...widget, sent, writes: () => sent.filter((s) => s.method !== 'GET') }
}

const type = (value: string) => act(async () => void fireEvent.change(screen.getByLabelText(/Your amount/), { target: { value } }))
const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })))
const typeCode = (code: string) => act(async () => void fireEvent.change(screen.getByLabelText(text.codeLabel), { target: { value: code } }))

describe('the Security page', () => {
  test('a first amount and a lower one are saved with no code', async () => {
    const page = await renderPage(null)
    expect(screen.getByText(text.neverAsks)).toBeTruthy()
    await type('0.01')
    await click(text.save)
    await type('0.001')
    await click(text.save)
    expect(page.writes()).toEqual([
      { method: 'PUT', path: '/wallet/step-up-thresholds/31337', body: { amount: '0.01' } },
      { method: 'PUT', path: '/wallet/step-up-thresholds/31337', body: { amount: '0.001' } },
    ])
    expect(screen.getByText(text.asksAbove('0.001 ETH'))).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe(text.saved)
  })

  test('a higher amount asks the code first, bound to the change, then saves with the proof', async () => {
    const page = await renderPage('0.001')
    await type('0.5')
    await click(text.save)
    expect(page.writes()).toEqual([
      {
        method: 'POST',
        path: '/auth/step-up/start',
        body: { action: 'loosen-step-up', request: thresholdChangeHash(31337, parseEther('0.5')), factors: ['passkey', 'email'] },
      },
    ])
    expect(screen.getByText(text.looserWhy)).toBeTruthy()
    await typeCode('123456')
    expect(page.writes().slice(1)).toEqual([
      { method: 'POST', path: '/auth/step-up/verify', body: { challengeId: 'suc_1', code: '123456' } },
      { method: 'PUT', path: '/wallet/step-up-thresholds/31337', body: { amount: '0.5', stepUpProof: proof } },
    ])
    expect(await screen.findByText(text.asksAbove('0.5 ETH'))).toBeTruthy()
  })

  test('removing asks the code for a removal', async () => {
    const page = await renderPage('0.001')
    await click(text.remove)
    expect(page.writes()[0]?.body).toEqual({ action: 'loosen-step-up', request: thresholdChangeHash(31337, null), factors: ['passkey', 'email'] })
    await typeCode('123456')
    expect(page.writes().at(-1)).toEqual({ method: 'DELETE', path: '/wallet/step-up-thresholds/31337', body: { stepUpProof: proof } })
    expect(await screen.findByText(text.neverAsks)).toBeTruthy()
  })

  test('cancelling the code changes nothing', async () => {
    const page = await renderPage('0.001')
    await type('1')
    await click(text.save)
    await click(text.cancel)
    expect(page.writes().map((w) => w.path)).toEqual(['/auth/step-up/start'])
    expect(screen.getByText(text.asksAbove('0.001 ETH'))).toBeTruthy()
  })

  test('an amount that is not a plain decimal is refused here, nothing sent', async () => {
    const page = await renderPage(null)
    await type('1e3')
    await click(text.save)
    expect(screen.getByRole('alert').textContent).toBe(text.badAmount)
    expect(page.writes()).toEqual([])
  })

  test('a user with a passkey confirms a higher amount with it: the assertion goes to verify, no code, then the change with the proof', async () => {
    ceremony.next = { answer: credential }
    const page = await renderPage('0.001', 'passkey')
    await type('2')
    await click(text.save)
    expect(screen.getByText(text.passkeyAsk)).toBeTruthy()
    // The ceremony starts from a click of its own (a browser gives it only to a user's gesture).
    expect(ceremony.asked).toEqual([])
    await click(text.passkeyButton)
    expect(ceremony.asked).toEqual([passkeyOptions])
    expect(page.writes().slice(1)).toEqual([
      { method: 'POST', path: '/auth/step-up/verify', body: { challengeId: 'suc_1', credential } },
      { method: 'PUT', path: '/wallet/step-up-thresholds/31337', body: { amount: '2', stepUpProof: proof } },
    ])
    expect(await screen.findByText(text.asksAbove('2 ETH'))).toBeTruthy()
  })

  test('a cancelled passkey says so and changes nothing; an engine refusing it here falls back to the e-mail code', async () => {
    ceremony.next = { refuse: 'cancelled' }
    const page = await renderPage('0.001', 'passkey')
    await type('2')
    await click(text.save)
    await click(text.passkeyButton)
    expect(screen.getByRole('status').textContent).toBe(text.passkeyCancelled)
    expect(page.writes().map((w) => w.path)).toEqual(['/auth/step-up/start'])
    await click(text.cancel)
    expect(screen.getByText(text.asksAbove('0.001 ETH'))).toBeTruthy()

    ceremony.next = { refuse: 'frame' }
    await type('3')
    await click(text.save)
    await click(text.passkeyButton)
    // The code is asked for the same change, and the change is saved with its proof.
    const request = thresholdChangeHash(31337, parseEther('3'))
    expect(page.writes().slice(1)).toEqual([
      { method: 'POST', path: '/auth/step-up/start', body: { action: 'loosen-step-up', request, factors: ['passkey', 'email'] } },
      { method: 'POST', path: '/auth/step-up/start', body: { action: 'loosen-step-up', request, factors: ['email'] } },
    ])
    await typeCode('123456')
    expect(page.writes().at(-1)).toEqual({ method: 'PUT', path: '/wallet/step-up-thresholds/31337', body: { amount: '3', stepUpProof: proof } })
    expect(await screen.findByText(text.asksAbove('3 ETH'))).toBeTruthy()
  })
})
