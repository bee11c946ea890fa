// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { resolveContext } from '../../../sdk/config.ts'
import { passkeyRemovalHash } from '../../../sdk/passkeys.ts'
import { createTokenHolder } from '../../../sdk/config.ts'
import { passkeyText } from '../../connect/passkey-text.ts'
import { alice } from '../../wallet.fixture.ts'
import { renderProfileWidget } from '../profile.fixture.tsx'
import { passkeyStepUpText } from './passkey-step-up-text.ts'

// The passkeys page on a scripted wallet service, with the browser's ceremony played here: Add and
// Remove ask the confirmation code first and send its proof with the change; Cancel sends nothing.

const ceremonies: unknown[] = []
vi.mock('../../connect/passkey-ceremony.ts', async (original) => ({
  ...(await original<typeof import('../../connect/passkey-ceremony.ts')>()),
  createPasskey: async (options: unknown) => {
    ceremonies.push(options)
    return { id: 'new-credential', type: 'public-key' }
  },
  getPasskey: async (options: unknown) => {
    ceremonies.push(options)
    return { id: 'laptop-id', type: 'public-key' }
  },
}))
const { Passkeys } = await import('./Passkeys.tsx')

afterEach(() => {
  cleanup()
  ceremonies.length = 0
})

const text = { ...passkeyText.en, ...passkeyStepUpText.en }
const proof = `sup_${'P'.repeat(43)}`
const laptop = { id: 'laptop-id', name: 'Laptop', createdAt: '2026-01-01T00:00:00Z', lastUsedAt: null, backedUp: false }
const envelope = (status: number, message: string, data: unknown) =>
  new Response(JSON.stringify({ status, message, data }), { status, headers: { 'content-type': 'application/json' } })
type Answers = Record<string, () => Response>
const defaults: Answers = {
  'GET /wallet/passkeys': () => envelope(200, 'OK', { passkeys: [laptop] }),
  'POST /auth/step-up/start': () =>
    envelope(200, 'OK', { challengeId: 'suc_1', factor: 'email', action: 'x', expiresAt: '2030-01-01T00:00:00Z', sentTo: 'a•••@example.com' }),
  'POST /auth/step-up/verify': () => envelope(200, 'OK', { stepUpProof: proof, action: 'x', expiresAt: '2030-01-01T00:00:00Z' }),
  'POST /wallet/passkeys/options': () => envelope(200, 'OK', { challenge: 'abc' }),
  'POST /wallet/passkeys': () => envelope(200, 'OK', { passkey: laptop }),
  'DELETE /wallet/passkeys/laptop-id': () => envelope(200, 'OK', { removed: true }),
}

async function renderPage(override: Answers = {}) {
  const sent: { call: string; body: unknown }[] = []
  const context = resolveContext({
    appId: 'demo',
    baseUrls: { wallet: 'http://wallet.test/api/v2' },
    tokens: createTokenHolder({ walletToken: alice.token }),
    fetch: async (url, init) => {
      const call = `${init?.method ?? 'GET'} ${String(url).replace('http://wallet.test/api/v2', '')}`
      sent.push({ call, body: init?.body === undefined ? undefined : JSON.parse(String(init.body)) })
      return { ...defaults, ...override }[call]!()
    },
  })
  await act(async () => void (await renderProfileWidget(<Passkeys />, { client: { context } })))
  await screen.findByText('Laptop')
  return { sent, calls: () => sent.map((s) => s.call).filter((c) => c !== 'GET /wallet/passkeys') }
}

const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })))
const typeCode = (code: string) => act(async () => void fireEvent.change(screen.getByLabelText(text.codeLabel), { target: { value: code } }))

describe('the passkeys page asks the confirmation code before a change', () => {
  test('Add: the code, then the ceremony from its own click, with the proof in the options call', async () => {
    const page = await renderPage()
    await click(text.add)
    expect(page.sent.find((s) => s.call === 'POST /auth/step-up/start')?.body).toEqual({ action: 'add-sign-in-method', factors: ['passkey', 'email'] })
    expect(screen.getByText(text.addWhy)).toBeTruthy()
    expect(page.calls()).toEqual(['POST /auth/step-up/start'])
    await typeCode('123456')
    expect(ceremonies).toEqual([])
    await click(text.create)
    expect(page.calls()).toEqual(['POST /auth/step-up/start', 'POST /auth/step-up/verify', 'POST /wallet/passkeys/options', 'POST /wallet/passkeys'])
    expect(page.sent.find((s) => s.call === 'POST /wallet/passkeys/options')?.body).toEqual({ stepUpProof: proof })
    expect(ceremonies).toEqual([{ challenge: 'abc' }])
    expect(await screen.findByText(text.added)).toBeTruthy()
  })

  test('Remove: the code for that passkey, then the removal with the proof; Cancel instead sends nothing', async () => {
    const page = await renderPage()
    await click(`${text.remove} Laptop`)
    expect(screen.getByText(text.removeWhy('Laptop'))).toBeTruthy()
    await click(text.cancel)
    expect(screen.getByText('Laptop')).toBeTruthy()
    expect(page.calls()).toEqual(['POST /auth/step-up/start'])

    await click(`${text.remove} Laptop`)
    expect(page.sent.filter((s) => s.call === 'POST /auth/step-up/start').at(-1)?.body).toEqual({
      action: 'remove-sign-in-method',
      factors: ['passkey', 'email'],
      request: passkeyRemovalHash('laptop-id'),
    })
    await typeCode('123456')
    expect(page.sent.find((s) => s.call === 'DELETE /wallet/passkeys/laptop-id')?.body).toEqual({ stepUpProof: proof })
    expect(await screen.findByText(text.removed)).toBeTruthy()
  })

  test('Cancel after the code: no options asked, no ceremony, nothing stored', async () => {
    const page = await renderPage()
    await click(text.add)
    await typeCode('123456')
    await click(text.cancel)
    expect(page.calls()).toEqual(['POST /auth/step-up/start', 'POST /auth/step-up/verify'])
    expect(ceremonies).toEqual([])
    expect(screen.getByRole('button', { name: text.add })).toBeTruthy()
  })

  test('an account with no e-mail (409 on start) goes straight to the service, and its refusal is said', async () => {
    const refusal =
      'Step-up required: this account has no e-mail address for a confirmation code, so passkeys can be added or removed only within 5 minutes of signing in. Sign in again, then try once more'
    const page = await renderPage({
      'POST /auth/step-up/start': () => envelope(409, 'No second factor is set up for this account', { factors: [] }),
      'POST /wallet/passkeys/options': () => envelope(403, refusal, { stepUp: { action: 'add-sign-in-method', factors: [], freshSignInMinutes: 5 } }),
    })
    await click(text.add)
    expect(page.sent.find((s) => s.call === 'POST /wallet/passkeys/options')?.body).toEqual({})
    expect(ceremonies).toEqual([])
    expect((await screen.findByRole('alert')).textContent).toBe(refusal)
  })

  test('Remove confirmed with a passkey: the assertion earns the proof, no code is asked', async () => {
    const options = { challenge: 'c2VydmljZQ', allowCredentials: [{ id: 'laptop-id', type: 'public-key' }] }
    const page = await renderPage({
      'POST /auth/step-up/start': () =>
        envelope(200, 'OK', { challengeId: 'suc_pk', factor: 'passkey', action: 'remove-sign-in-method', expiresAt: '2030-01-01T00:00:00Z', options }),
    })
    await click(`${text.remove} Laptop`)
    expect(screen.queryByLabelText(text.codeLabel)).toBeNull()
    expect(ceremonies).toEqual([])
    await click(text.passkeyButton)
    expect(ceremonies).toEqual([options])
    expect(page.sent.find((s) => s.call === 'POST /auth/step-up/verify')?.body).toEqual({
      challengeId: 'suc_pk',
      credential: { id: 'laptop-id', type: 'public-key' },
    })
    expect(page.sent.find((s) => s.call === 'DELETE /wallet/passkeys/laptop-id')?.body).toEqual({ stepUpProof: proof })
  })
})
