import { describe, expect, test } from 'vitest'
import { type ConfirmationContext, type ConfirmationPlace, confirmationPlace } from './presentation.ts'

/** A plain-text message in a frame that is seen, on Chromium, with a secure window to hand. */
const base: ConfirmationContext = {
  secureWindow: true,
  mode: 'frame',
  onDevice: false,
  confirmableInFrame: true,
  gate: 'clear',
  busy: false,
  visibilityProvable: true,
}

describe('where a confirmation happens', () => {
  const table: [string, Partial<ConfirmationContext>, ConfirmationPlace][] = [
    ['a plain-text message in a frame seen whole', {}, { where: 'here', why: 'frame-seen', announce: false }],
    ['the same while the gate still arms', { gate: 'arming' }, { where: 'here', why: 'frame-seen', announce: false }],
    ['the frame covered or restyled for now', { gate: 'unsafe' }, { where: 'window', why: 'frame-not-seen', announce: false }],
    ['a request that moves value or grants authority', { confirmableInFrame: false }, { where: 'window', why: 'moves-value', announce: true }],
    ['the host chose popup', { mode: 'popup' }, { where: 'window', why: 'host-chose-popup', announce: true }],
    [
      'a browser that cannot tell whether the frame is seen: said up front',
      { visibilityProvable: false, gate: 'unsafe' },
      { where: 'window', why: 'frame-not-seen', announce: true },
    ],
    ['a request already being carried out stays here', { busy: true, confirmableInFrame: false }, { where: 'here', why: 'under-way', announce: false }],
    ['a WalletConnect wallet: on the device', { onDevice: true, confirmableInFrame: false }, { where: 'device', why: 'on-device', announce: false }],
    [
      'in the secure window itself (no window to open)',
      { secureWindow: false, confirmableInFrame: false, mode: 'popup' },
      { where: 'here', why: 'no-secure-window', announce: false },
    ],
    [
      'in the secure window, a device wallet still confirms on the device',
      { secureWindow: false, onDevice: true },
      { where: 'device', why: 'on-device', announce: false },
    ],
  ]
  test.each(table)('%s', (_name, change, place) => {
    expect(confirmationPlace({ ...base, ...change })).toEqual(place)
  })
})
