import type { PasskeyRefusal } from './passkey-ceremony.ts'

type CeremonyModule = typeof import('./passkey-ceremony.ts')

/**
 * Test support: the browser's passkey ceremony as a test plays it. `ceremony.next` says what the
 * next ceremony does (answer with a credential, or end for a reason); `ceremony.asked` lists the
 * options of every ceremony started. A test mocks the ceremony module with `playCeremony`:
 *   vi.mock('…/passkey-ceremony.ts', async (real) =>
 *     (await import('…/passkey-ceremony.fixture.ts')).playCeremony(await real()))
 */
export const ceremony: { next: { answer: Record<string, unknown> } | { refuse: PasskeyRefusal }; asked: unknown[] } = {
  next: { answer: {} },
  asked: [],
}

/** The ceremony module with its `getPasskey` played from `ceremony` (the rest, the error class included, real). */
export function playCeremony(real: CeremonyModule): CeremonyModule {
  return {
    ...real,
    getPasskey: async (options) => {
      ceremony.asked.push(options)
      const { next } = ceremony
      if ('refuse' in next) throw new real.PasskeyNotMade(next.refuse)
      return next.answer as unknown as Awaited<ReturnType<CeremonyModule['getPasskey']>>
    },
  }
}
