import { alice } from './wallet.fixture.ts'

// Shared by the confirmation tests: a message-signing request for alice, and its outcome as the host sees it.

export const payload = { from: alice.address, chainId: 31337, message: 'hi' }

/** A message-signing request that runs `run` once confirmed (`onDevice`: once shown, on the wallet's own device). */
export const ask = (run: () => Promise<unknown>, options: { onDevice?: boolean } = {}) => ({
  kind: 'message' as const,
  payload,
  run,
  rejected: 'Message signing rejected by user',
  failed: 'Failed to sign message',
  ...options,
})

/** The answer, or the error's code and message. */
export const outcome = (p: Promise<unknown>) =>
  p.then(
    (result) => ({ result }),
    (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
  )
