import type { Store } from '../../infra/database/store.ts'

// How a session began, recorded once when its refresh family starts (login-answer.ts, account
// recovery). A second device of the same session (the secure window's handoff) keeps the first answer.

export type SignInMethod = 'email' | 'whatsapp' | 'google' | 'apple' | 'telegram' | 'password' | 'recovery' | 'passkey'

export async function recordSignIn(store: Store, familyId: string, method: SignInMethod): Promise<void> {
  await store.query('INSERT INTO session_sign_ins (family_id, method) VALUES ($1, $2) ON CONFLICT (family_id) DO NOTHING', [familyId, method])
}

/** The method a session began with; undefined for a session started before the sandbox recorded it. */
export async function signInMethodOf(store: Store, familyId: string): Promise<SignInMethod | undefined> {
  const { rows } = await store.query<{ method: SignInMethod }>('SELECT method FROM session_sign_ins WHERE family_id = $1', [familyId])
  return rows[0]?.method
}
