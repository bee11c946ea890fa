// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { Widget, type WidgetContext } from '../context.ts'
import { Modal } from './Modal.tsx'

// The modal closes on Escape or a click on the backdrop, unless closing is
// disabled (a pending confirmation). The close button follows the same rule.

afterEach(cleanup)

function open(closable?: boolean) {
  const onClose = vi.fn()
  render(
    <Widget.Provider value={{ locale: 'en' } as WidgetContext}>
      <Modal testId="m" title="Title" onClose={onClose} {...(closable !== undefined && { closable })}>
        <input aria-label="field" />
      </Modal>
    </Widget.Provider>,
  )
  const dialog = screen.getByRole('dialog')
  const backdrop = dialog.parentElement!
  return { onClose, dialog, backdrop, closeButton: screen.getByRole('button', { name: 'Close' }) as HTMLButtonElement }
}

test('Escape closes the modal, from anywhere in it', () => {
  const { onClose } = open()
  fireEvent.keyDown(screen.getByLabelText('field'), { key: 'Escape' })
  expect(onClose).toHaveBeenCalledTimes(1)
})

test('a press on the backdrop closes the modal; one inside the dialog does not', () => {
  const { onClose, dialog, backdrop } = open()
  fireEvent.mouseDown(dialog)
  fireEvent.mouseDown(screen.getByLabelText('field'))
  expect(onClose).not.toHaveBeenCalled()
  expect(backdrop.className).toBe('wk-backdrop')
  fireEvent.mouseDown(backdrop)
  expect(onClose).toHaveBeenCalledTimes(1)
})

test('closing disabled: Escape, the backdrop and the close button do nothing', () => {
  const { onClose, backdrop, closeButton } = open(false)
  fireEvent.keyDown(screen.getByLabelText('field'), { key: 'Escape' })
  fireEvent.mouseDown(backdrop)
  expect(closeButton.disabled).toBe(true)
  fireEvent.click(closeButton)
  expect(onClose).not.toHaveBeenCalled()
})

test('other keys do not close it', () => {
  const { onClose } = open()
  for (const key of ['Enter', ' ', 'Esc', 'Tab', 'Backspace']) fireEvent.keyDown(screen.getByLabelText('field'), { key })
  expect(onClose).not.toHaveBeenCalled()
})
