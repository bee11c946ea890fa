// Test support for the confirmation modal's tests: the modal rendered with a test wallet, and a pointer.
import { act, render, screen } from '@testing-library/react'
import { Profiler } from 'react'
import { stringToHex } from 'viem'
import type { AppConfig } from '../../sdk/index.ts'
import { createConfirmations } from '../confirmation.ts'
import { Widget } from '../context.ts'
import { alice, testWallet } from '../wallet.fixture.ts'
import type { SecureHandle } from '../secure/secure-handle.ts'
import { ConfirmModal } from './ConfirmModal.tsx'

/** The last pointer position dispatched, so that a gesture continues from it (no jump that reads as a moved frame). */
let last = { sx: 300, sy: 300, cx: 100, cy: 100 }
export const pointer = (type: string, at: { sx: number; sy: number; cx: number; cy: number }, relatedTarget: EventTarget | null = document.body) => {
  last = at
  window.dispatchEvent(Object.assign(new Event(type, { bubbles: true }), { screenX: at.sx, screenY: at.sy, clientX: at.cx, clientY: at.cy, relatedTarget }))
}
/** A hand moving the pointer 15 px in the window, from where it was: the deliberate interaction the window's Confirm waits for. */
export const gesture = () =>
  act(async () => {
    const from = last
    for (const d of [0, 5, 10, 15]) pointer('pointermove', { sx: from.sx + d, sy: from.sy, cx: from.cx + d, cy: from.cy })
  })

export type Presentation = { presentation: 'frame' | 'window'; mode: 'frame' | 'popup'; secure: SecureHandle | null }

/** Default: the secure window's presentation, where only the gate's timing rules apply (no IntersectionObserver here). */
export async function setup(at: Presentation = { presentation: 'window', mode: 'popup', secure: null }) {
  const t = testWallet({ session: alice })
  await t.wallet.restore()
  const confirmations = createConfirmations(t.wallet)
  /** Per commit (before the browser can paint it): which message is shown and whether Confirm is enabled. */
  const commits: { message: string | null; confirmEnabled: boolean }[] = []
  const record = () => {
    const confirm = screen.queryByRole('button', { name: 'Confirm' }) as HTMLButtonElement | null
    commits.push({ message: screen.queryByTestId('confirm-message')?.textContent ?? null, confirmEnabled: confirm ? !confirm.disabled : false })
  }
  render(
    <Widget.Provider
      value={{
        wallet: t.wallet,
        confirmations,
        client: {} as never,
        config: { showPoweredBy: false } as AppConfig,
        rpc: () => ({}) as never,
        locale: 'en',
        persistent: true,
        walletConnect: null,
        ...at,
      }}
    >
      <Profiler id="confirmation" onRender={record}>
        <ConfirmModal />
      </Profiler>
    </Widget.Provider>,
  )
  const ask = (message: string) =>
    confirmations
      .request({
        kind: 'message',
        payload: { from: alice.address, chainId: 31337, message: stringToHex(message) },
        run: async () => '0xsig',
        rejected: 'Message signing rejected by user',
        failed: 'Failed to sign message',
      })
      .catch((e: { code: number }) => e.code)
  return { ...t, confirmations, commits, ask }
}
