import { afterAll, beforeAll, expect } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// What the permission-accept tests do again and again: a signed-up user whose wallet lost the
// signing permission, the page's link from a refused signature, the page's forms posted as the page
// posts them, and whether the wallet may sign now.

export type LockedUser = { email: string; walletToken: string; address: string }

/** The claims of a JWT, unverified. */
export const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>

export function permissionPage(sandbox: TestSandbox) {
  /** Takes the wallet's signing permission away (the sandbox's developer switch). */
  const lock = async (address: string) => {
    const { rowCount } = await sandbox.store.query('UPDATE wallets SET permission_granted = false WHERE address = $1', [address])
    expect(rowCount).toBe(1)
  }
  /** Signs `email` up and takes its wallet's permission away. */
  const lockedUser = async (email: string): Promise<LockedUser> => {
    const wallet = await sandbox.signUp(email)
    await lock(wallet.address)
    return { email, walletToken: wallet.walletToken, address: wallet.address }
  }
  const sign = (walletToken: string) => sandbox.post('/api/v2/wallet/sign-message', { network: 'local-1', message: 'hi' }, walletToken)
  /** The permission token of the link a refused signature of this session carries. */
  const tokenOf = async (walletToken: string) => {
    const refused = await sign(walletToken)
    expect(refused.body.status, JSON.stringify(refused.body)).toBe(407)
    return new URL(refused.body.data.acceptPermissionPage as string).searchParams.get('token')!
  }
  const open = async (token: string) => {
    const response = await fetch(`${sandbox.url}/permission/accept?token=${encodeURIComponent(token)}`)
    return { status: response.status, headers: response.headers, html: await response.text() }
  }
  /** Posts the page's form with these fields. */
  const post = async (fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${sandbox.url}/permission/accept`, { method: 'POST', body: new URLSearchParams(fields), headers })
    return { status: response.status, headers: response.headers, html: await response.text() }
  }
  /** The challenge id a step-up page carries in its form. */
  const challengeIdIn = (html: string) => {
    const id = /name="challengeId" value="([^"]+)"/.exec(html)?.[1]
    expect(id, html).toBeDefined()
    return id!
  }
  const granted = async (address: string) =>
    (await sandbox.store.query<{ permission_granted: boolean }>('SELECT permission_granted FROM wallets WHERE address = $1', [address])).rows[0]
      ?.permission_granted
  const inboxSize = async (email: string) => ((await sandbox.call(`/dev/api/inbox?to=${encodeURIComponent(email)}`)).body as unknown[]).length
  /** The newest code the dev inbox holds for `email`. */
  const code = async (email: string) => ((await sandbox.call(`/dev/api/inbox?to=${encodeURIComponent(email)}`)).body as { code: string }[])[0]!.code
  return { lock, lockedUser, sign, tokenOf, open, post, challengeIdIn, granted, inboxSize, code }
}

/** A sandbox and its permission page for one test file: started before the file's tests, disposed after. */
export function permissionPageForFile() {
  const t = {} as { sandbox: TestSandbox; perm: ReturnType<typeof permissionPage> }
  beforeAll(async () => {
    t.sandbox = await startTestSandbox()
    t.perm = permissionPage(t.sandbox)
  })
  afterAll(() => t.sandbox?.dispose())
  return t
}
