import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readSeed } from '../app-config/apps.ts'
import { upsertApp } from '../app-config/queries.ts'
import { formPost, startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// Google and Apple sign-in, attacked: a captured ID token sent again, and an app owner who names
// another app's client id. (The flows themselves: social.test.ts.)

let sandbox: TestSandbox
let callback: string

beforeAll(async () => {
  sandbox = await startTestSandbox()
  callback = `${sandbox.url}/widget/oauth-callback.html`
  const demo = readSeed().find((seed) => seed.appId === 'demo')!
  // Names the demo's Google and Apple clients, and allows only its own site.
  await upsertApp(sandbox.store, { ...demo, appId: 'claimer', allowedOrigins: ['https://claimer.example'] })
})
afterAll(() => sandbox?.dispose())

const auth = (path: string, body: unknown, app?: string) => sandbox.post(`/api/v2/auth/${path}`, body, undefined, app)

/** An identity picked on the Google emulator, redirected to `redirectUri`: the response (a 302 with the code, or the refusal). */
function pickGoogle(email: string, redirectUri: string) {
  const fields = { client_id: 'demo-google-client', redirect_uri: redirectUri, state: 's', nonce: 'n', response_type: 'code', response_mode: 'query', email }
  return fetch(`${sandbox.url}/oauth/google/authorize`, { ...formPost(fields), redirect: 'manual' })
}

describe('Google and Apple sign-in, attacked', () => {
  test('an ID token signs in once: the same token captured and sent again (to this app or another) is refused', async () => {
    const picked = await pickGoogle('replayed@example.com', callback)
    const code = new URL(picked.headers.get('location')!).searchParams.get('code')!
    const exchanged = await fetch(
      `${sandbox.url}/oauth/google/token`,
      formPost({ grant_type: 'authorization_code', code, redirect_uri: callback, client_id: 'demo-google-client' }),
    )
    const { id_token } = await exchanged.json()
    expect((await auth('google', { credential: id_token })).status).toBe(200)
    expect((await auth('google', { credential: id_token })).body).toEqual({
      status: 401,
      message: 'Google ID token was already used, sign in again',
      data: null,
    })
    // The seed's 'smart' app shares the demo's Google client: the token is spent there too.
    expect((await auth('google', { credential: id_token }, 'smart')).body.message).toBe('Google ID token was already used, sign in again')
  })

  test("an app owner who names another app's client id cannot send that client's codes to their own site", async () => {
    for (const provider of ['google', 'apple']) {
      const query = new URLSearchParams({ client_id: `demo-${provider}-client`, redirect_uri: 'https://claimer.example/cb', state: 's', nonce: 'n' })
      const shown = await fetch(`${sandbox.url}/oauth/${provider}/authorize?${query}`)
      expect(shown.status).toBe(400)
      expect(await shown.text()).toContain('redirect_uri is not registered for this client')
      const chosen = await fetch(`${sandbox.url}/oauth/${provider}/authorize`, {
        ...formPost({ ...Object.fromEntries(query), email: 'victim@example.com' }),
        redirect: 'manual',
      })
      expect(chosen.status).toBe(400)
    }
    // The provider's own callback still takes every app's sign-ins of the client.
    const picked = await pickGoogle('claimer-user@example.com', callback)
    expect(picked.status).toBe(302)
    expect(new URL(picked.headers.get('location')!).searchParams.get('code')).toMatch(/\S/)
  })
})
