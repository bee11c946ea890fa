// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Context } from '../../../sdk/config.ts'
import { ceremony } from '../../connect/passkey-ceremony.fixture.ts'
import { renderProfileWidget, scriptedWalletService } from '../profile.fixture.tsx'
import { exportKeyText } from './export-key-text.ts'

// The export page's step-up with a passkey, on a scripted wallet service with the browser's ceremony
// played here: the assertion goes to verify; a cancel says so and sends nothing; an engine refusing
// the ceremony in the frame falls back to an e-mail code when the account has one, else says so.

vi.mock('../../connect/passkey-ceremony.ts', async (real) => (await import('../../connect/passkey-ceremony.fixture.ts')).playCeremony(await real()))
vi.mock('../../secure/secure-window.ts', () => ({ openSecureWindow: () => ({ channel: { post: async () => {} }, close: () => {} }) }))
const { ExportKey } = await import('./ExportKey.tsx')

afterEach(() => {
  cleanup()
  ceremony.asked.length = 0
})

const text = exportKeyText.en
const options = { challenge: 'c2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required', allowCredentials: [{ id: 'cred-1', type: 'public-key' }] }
const credential = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'e30' } }
const envelope = (data: unknown) => new Response(JSON.stringify({ status: 200, message: 'OK', data }), { headers: { 'content-type': 'application/json' } })
const passkeyStart = (otherFactors?: string[]) =>
  envelope({
    challengeId: 'suc_pk',
    factor: 'passkey',
    action: 'export-key',
    expiresAt: '2030-01-01T00:00:00Z',
    options,
    ...(otherFactors ? { otherFactors } : {}),
  })
const emailStart = () =>
  envelope({ challengeId: 'suc_mail', factor: 'email', action: 'export-key', expiresAt: '2030-01-01T00:00:00Z', sentTo: 'a•••@example.com' })

async function renderPage(starts: (() => Response)[]) {
  const sent: { path: string; body: unknown }[] = []
  const client: { context?: Context } = {}
  const widget = await renderProfileWidget(<ExportKey />, { client })
  client.context = scriptedWalletService(widget.owner.tokens, ({ path, body }) => {
    sent.push({ path, body })
    if (path === '/auth/step-up/start') return starts.shift()!()
    return envelope({ stepUpProof: `sup_${'P'.repeat(43)}`, action: 'export-key', expiresAt: '2030-01-01T00:00:00Z' })
  })
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: text.sendCode })))
  return sent
}

const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })))

describe('the export page confirming with a passkey', () => {
  test('asks the passkey from a click of its own and sends the assertion: no code, then the secure window', async () => {
    ceremony.next = { answer: credential }
    const sent = await renderPage([() => passkeyStart(['email'])])
    expect(sent).toEqual([{ path: '/auth/step-up/start', body: { action: 'export-key', factors: ['passkey', 'email'] } }])
    expect(ceremony.asked).toHaveLength(0)
    expect(screen.queryByLabelText(text.codeLabel)).toBeNull()
    await click(text.passkeyButton)
    expect(ceremony.asked).toEqual([options])
    expect(sent.slice(1)).toEqual([{ path: '/auth/step-up/verify', body: { challengeId: 'suc_pk', credential } }])
    expect(screen.getByText(text.windowWhy)).toBeTruthy()
  })

  test('a cancelled ceremony says so and sends nothing; the button tries again', async () => {
    ceremony.next = { refuse: 'cancelled' }
    const sent = await renderPage([() => passkeyStart(['email'])])
    await click(text.passkeyButton)
    expect(screen.getByRole('status').textContent).toBe(text.passkeyCancelled)
    expect(sent).toHaveLength(1)
    ceremony.next = { answer: credential }
    await click(text.passkeyButton)
    expect(sent.map((s) => s.path)).toEqual(['/auth/step-up/start', '/auth/step-up/verify'])
  })

  test('an engine refusing the ceremony in the frame: the e-mail code instead when the account has an address', async () => {
    ceremony.next = { refuse: 'frame' }
    const sent = await renderPage([() => passkeyStart(['email']), emailStart])
    await click(text.passkeyButton)
    expect(sent.slice(1)).toEqual([{ path: '/auth/step-up/start', body: { action: 'export-key', factors: ['email'] } }])
    expect(screen.getByText(text.sentTo('a•••@example.com'))).toBeTruthy()
  })

  test('an engine refusing the ceremony with no e-mail to fall back to: says so, sends nothing', async () => {
    ceremony.next = { refuse: 'unsupported' }
    const sent = await renderPage([() => passkeyStart()])
    await click(text.passkeyButton)
    expect(screen.getByText(text.passkeyRefused).getAttribute('role')).toBe('alert')
    expect(screen.queryByRole('button', { name: text.passkeyButton })).toBeNull()
    expect(sent).toHaveLength(1)
  })
})
