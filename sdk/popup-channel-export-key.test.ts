import { describe, expect, test } from 'vitest'
import { readPopupMessage } from './popup-channel.ts'

// The key export's messages on the popup channel, as each side reads them: the window takes only a
// well-formed handoff (a compact token and a proof of the service's shape, nothing else in it), and
// the frame never reads one at all (the window has nothing to hand back).

const walletToken = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl'
const stepUpProof = `sup_${'A1b2_-'.repeat(7)}x`
const handoff = { type: 'export-key', walletToken, stepUpProof }

describe('popup channel: the export-key purpose', () => {
  test('the window reads an open for export-key and a well-formed handoff as written', () => {
    expect(stepUpProof).toHaveLength(47)
    expect(readPopupMessage('popup', { type: 'open', purpose: 'export-key', hostOrigin: 'https://dapp.example' })).toEqual({
      type: 'open',
      purpose: 'export-key',
      hostOrigin: 'https://dapp.example',
    })
    expect(readPopupMessage('popup', handoff)).toEqual(handoff)
  })

  test.each([
    ['no token', { type: 'export-key', stepUpProof }],
    ['no proof', { type: 'export-key', walletToken }],
    ['a token that is not a string', { ...handoff, walletToken: 42 }],
    ['a token that is not a compact JWT', { ...handoff, walletToken: 'not a token' }],
    ['a token with a line break', { ...handoff, walletToken: `${walletToken}\n` }],
    ['a token too long to be one', { ...handoff, walletToken: `${'a'.repeat(5000)}.b.c` }],
    ['a proof of another prefix (a challenge id)', { ...handoff, stepUpProof: `suc_${stepUpProof.slice(4)}` }],
    ['a proof cut short', { ...handoff, stepUpProof: stepUpProof.slice(0, -1) }],
    ['a proof that is an object', { ...handoff, stepUpProof: { toString: () => stepUpProof } }],
    ['an extra field (the key, say)', { ...handoff, privateKey: `0x${'1'.repeat(64)}` }],
    ['an array', [handoff]],
    ['an unknown purpose', { type: 'open', purpose: 'export-everything', hostOrigin: 'https://dapp.example' }],
  ])('the window drops a malformed message: %s', (_, message) => {
    expect(readPopupMessage('popup', message)).toBeNull()
  })

  test('the frame drops a handoff: only the frame hands one over', () => {
    expect(readPopupMessage('frame', handoff)).toBeNull()
  })
})
