// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { resolveContext, type Context } from '../../../sdk/config.ts'
import { alice, setUi } from '../../wallet.fixture.ts'
import { ProfileModal } from '../ProfileModal.tsx'
import { renderProfileWidget } from '../profile.fixture.tsx'
import { Recovery } from './Recovery.tsx'
import { recoveryText } from './recovery-text.ts'

// The recovery page on a scripted wallet service: what it refuses itself, what it sends, what it keeps.

afterEach(cleanup)

const text = recoveryText.en
const secret0 = `0x${'c3'.repeat(32)}`
const restored = { walletToken: 'w2', refreshToken: 'r2', address: [{ network: 'evm', address: alice.address }] }
const envelope = (status: number, message: string, data: unknown) =>
  new Response(JSON.stringify({ status, message, data }), { status, headers: { 'content-type': 'application/json' } })

type Sent = { url: string; authorization: string | null; body: string }

/** The page signed in as alice, its service answering with `answer` (a Response, or a thrown network error). */
async function renderPage(answer: () => Response | Promise<Response>) {
  const sent: Sent[] = []
  const client: { context?: Context } = {}
  const widget = await renderProfileWidget(<Recovery address={alice.address} />, { client })
  client.context = resolveContext({
    appId: 'demo',
    baseUrls: { wallet: 'http://wallet.test/api/v2' },
    tokens: widget.owner.tokens,
    fetch: async (url, init) => {
      sent.push({ url: String(url), authorization: new Headers(init?.headers).get('authorization'), body: String(init?.body ?? '') })
      return answer()
    },
  })
  return { ...widget, sent }
}

const fileInput = () => screen.getByTestId('recovery-drop').querySelector('input[type=file]') as HTMLInputElement
const choose = (file: File) => act(async () => void fireEvent.change(fileInput(), { target: { files: [file] } }))
const restore = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: text.restore })))
const recoveryFile = (content: BlobPart = secret0, name = 'wallet-recovery-secret.walletkit', type = '') => new File([content], name, { type })

describe('the recovery page', () => {
  test('the downloaded file restores: secret0 form-encoded with the wallet token, the new session stored, nothing told to the host', async () => {
    const page = await renderPage(() => envelope(200, 'OK', restored))
    await choose(recoveryFile())
    expect(screen.getByText(text.chosen('wallet-recovery-secret.walletkit'))).toBeTruthy()
    await restore()
    await waitFor(() => expect(screen.getByTestId('recovery-done')).toBeTruthy())
    expect(screen.getByText(text.restored)).toBeTruthy()
    expect(page.sent).toHaveLength(1)
    expect(page.sent[0]!.url).toBe('http://wallet.test/api/v2/account/recover')
    expect(page.sent[0]!.authorization).toBe(`Bearer ${alice.token}`)
    expect(Object.fromEntries(new URLSearchParams(page.sent[0]!.body))).toEqual({ secret0 })
    await page.owner.settled()
    expect(page.stored()).toMatchObject({ token: 'w2', refreshToken: 'r2', address: alice.address })
    expect(page.events).toEqual([])
  })

  test('a file that is not a recovery file is refused here, with its reason, and nothing is called', async () => {
    const page = await renderPage(() => envelope(200, 'OK', restored))
    const cases: [File, string][] = [
      [recoveryFile(''), text.problems.empty],
      [recoveryFile(secret0, 'photo.png', 'image/png'), text.problems.wrongType],
      [recoveryFile('x'.repeat(5000)), text.problems.tooLarge],
      [recoveryFile(secret0.slice(0, 40)), text.problems.noSecret],
    ]
    for (const [file, message] of cases) {
      await choose(file)
      expect(screen.getByRole('alert').textContent).toBe(message)
      expect((screen.getByRole('button', { name: text.restore }) as HTMLButtonElement).disabled).toBe(true)
    }
    fireEvent.change(screen.getByLabelText(text.pasteLabel), { target: { value: '0x1234' } })
    await restore()
    expect(screen.getByRole('alert').textContent).toBe(text.pasteProblem)
    expect(page.sent).toEqual([])
    expect(page.stored()).toMatchObject({ token: alice.token, refreshToken: alice.refreshToken })
  })

  test("another wallet's secret: the service's refusal in plain words; the session stays as it was", async () => {
    const page = await renderPage(() => envelope(400, 'Recovery secret does not match this wallet', null))
    fireEvent.change(screen.getByLabelText(text.pasteLabel), { target: { value: ` ${secret0}\n` } })
    await restore()
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text.otherWallet))
    expect(page.sent).toHaveLength(1)
    await page.owner.settled()
    expect(page.stored()).toMatchObject({ token: alice.token, refreshToken: alice.refreshToken })
    expect(screen.getByRole('button', { name: text.restore })).toBeTruthy()
  })

  test('no network: said so; the session stays as it was', async () => {
    const page = await renderPage(() => Promise.reject(new TypeError('Failed to fetch')))
    await choose(recoveryFile())
    await restore()
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text.offline))
    await page.owner.settled()
    expect(page.stored()).toMatchObject({ token: alice.token, refreshToken: alice.refreshToken })
  })

  test('a dropped file is read; a drop that carries no file (text dragged from the page) is not', async () => {
    await renderPage(() => envelope(200, 'OK', restored))
    const zone = screen.getByTestId('recovery-drop')
    await act(async () => void fireEvent.drop(zone, { dataTransfer: { files: [], getData: () => secret0 } }))
    expect(screen.queryByText(/Recovery file:/)).toBeNull()
    await act(async () => void fireEvent.drop(zone, { dataTransfer: { files: [recoveryFile()] } }))
    await waitFor(() => expect(screen.getByText(text.chosen('wallet-recovery-secret.walletkit'))).toBeTruthy())
  })
})

describe("the profile's way to it", () => {
  test("the embedded wallet's profile has the row; it opens the page titled 'Restore from recovery file'", async () => {
    const { wallet } = await renderProfileWidget(<ProfileModal />)
    await act(async () => screen.getByRole('button', { name: 'Restore from recovery file' }).click())
    expect(wallet.ui.get()).toMatchObject({ page: 'recovery', history: ['home'] })
    expect(await screen.findByText(text.chooseFile)).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Restore from recovery file' })).toBeTruthy()
  })

  test('a wallet paired over WalletConnect has no recovery file here: no row', async () => {
    await renderProfileWidget(<ProfileModal />, {
      prepare: (wallet) => setUi(wallet, { session: { address: alice.address, walletConnect: { peer: 'Dev Wallet' } } }),
    })
    expect(screen.getByRole('button', { name: 'Receive' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Restore from recovery file' })).toBeNull()
  })
})
