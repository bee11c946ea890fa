import { type ChildProcess, spawn } from 'node:child_process'
import { expect, test, type Page } from '@playwright/test'
import { verifyIdentityToken } from '../sdk/identity.ts'
import { freePort } from '../sandbox/infra/ports.ts'
import { hostMessages, recorder, storedSession } from './bridge-recorder.ts'
import { signUp } from './flows.ts'
import { otherDemoOrigin, providerUrl } from './helpers.ts'

/**
 * The identity token, page side: after sign-in the page asks the kit for a token
 * (kit.getIdentityToken), the frame asks the provider with its own session, and only the JWT and
 * its expiry reach the page, which hands it to its server: here verifyIdentityToken against the
 * running sandbox's JWKS, and the back-end example (examples/identity-server/).
 */

type Outcome = { result?: { identityToken: string; expiresAt: string }; code?: number; message?: string }

/** kit.getIdentityToken in the page: the answer, or the error's code and message. */
const ask = (page: Page, options?: unknown) =>
  page.evaluate(
    (options) =>
      window.WalletKit!.kit!.getIdentityToken(options as never).then(
        (result): Outcome => ({ result }),
        (e: { code: number; message: string }): Outcome => ({ code: e.code, message: e.message }),
      ),
    options,
  )

/** The back-end example, as its README line runs it, against this suite's sandbox; stopped with its process group. */
async function startExampleServer(): Promise<{ origin: string; stop(): void }> {
  const port = await freePort()
  const server: ChildProcess = spawn('npx', ['tsx', 'examples/identity-server/main.ts'], {
    // The demo page's kit says env production: the app's production data set signs its tokens.
    env: { ...process.env, WALLET_KIT_URL: providerUrl, PORT: String(port), ENVIRONMENT: 'production' },
    detached: true,
  })
  const origin = await new Promise<string>((resolve, reject) => {
    let out = ''
    const read = (chunk: Buffer) => {
      out += chunk.toString()
      const listening = /\(production\) listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (listening) resolve(listening[1]!)
    }
    server.stdout!.on('data', read)
    server.stderr!.on('data', read)
    server.once('exit', (code) => reject(new Error(`the example exited (${code}): ${out}`)))
  })
  return { origin, stop: () => server.pid && server.exitCode === null && process.kill(-server.pid, 'SIGTERM') }
}

test('a signed-in page gets a token its server verifies (app, account shown, nonce); the bridge carries the JWT, never the session', async ({
  page,
  request,
}) => {
  await page.addInitScript(recorder)
  const address = await signUp(page, request)

  const nonce = `e2e-${Date.now()}-nonce`
  const outcome = await ask(page, { nonce })
  expect(outcome.code, outcome.message).toBeUndefined()
  const { identityToken, expiresAt } = outcome.result!
  expect(Object.keys(outcome.result!).sort()).toEqual(['expiresAt', 'identityToken'])

  const claims = await verifyIdentityToken(identityToken, { appId: 'demo', providerUrl, environment: 'production', nonce })
  expect(claims).toMatchObject({ appId: 'demo', environment: 'production', issuer: providerUrl, nonce, signInMethod: 'email' })
  expect(claims.walletAddress.toLowerCase()).toBe(address.toLowerCase())
  expect(claims.expiresAt * 1000).toBe(Date.parse(expiresAt))
  expect(claims.expiresAt - claims.issuedAt).toBe(600)
  // Another app's back end refuses it.
  await expect(verifyIdentityToken(identityToken, { appId: 'elsewhere', providerUrl, environment: 'production' })).rejects.toThrow()

  // Without a nonce: a fresh token with none in it.
  const plain = await ask(page)
  const plainClaims = await verifyIdentityToken(plain.result!.identityToken, { appId: 'demo', providerUrl, environment: 'production' })
  expect(plainClaims.nonce).toBeUndefined()
  expect(plainClaims.tokenId).not.toBe(claims.tokenId)

  // The back-end example takes it once.
  const server = await startExampleServer()
  try {
    const post = () =>
      request.post(`${server.origin}/api/session`, { data: { identityToken } }).then(async (r) => ({ status: r.status(), body: await r.json() }))
    expect(await post()).toMatchObject({ status: 200, body: { signedIn: true, walletAddress: claims.walletAddress, signInMethod: 'email' } })
    expect(await post()).toMatchObject({ status: 401, body: { signedIn: false } })
  } finally {
    server.stop()
  }

  // What crossed the bridge: the JWT (the recorder saw it, so it does see replies), never the session's tokens.
  const session = await storedSession(page)
  expect(session.token.length).toBeGreaterThan(20)
  const log = await hostMessages(page)
  const replies = log.filter((line) => line.includes(identityToken))
  expect(replies.length).toBeGreaterThan(0)
  for (const line of replies) expect(JSON.parse(line.slice(line.indexOf(' ') + 1)).value).toEqual({ result: { identityToken, expiresAt } })
  for (const secret of [session.token, session.refreshToken]) expect(log.filter((line) => line.includes(secret))).toEqual([])
})

test('no token for a page nobody signed in on, nor for another site of the app the user never connected; bad nonces are refused', async ({ page, request }) => {
  await page.goto('/demo/')
  await page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_chainId' }))
  expect(await ask(page)).toMatchObject({ code: 4100 })

  await signUp(page, request)
  for (const nonce of ['short', 'x'.repeat(129), 'with space!', 'ünïcödé-nonce', 'bidi\u202enonce', 12345678, ['abcdefghij']])
    expect(await ask(page, { nonce }), String(nonce)).toMatchObject({ code: -32602 })

  // Same browser, same signed-in session in the frame; this origin was never connected.
  const other = await page.context().newPage()
  await other.goto(`${otherDemoOrigin}/demo/`)
  expect(await other.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_accounts' }))).toEqual([])
  expect(await ask(other)).toMatchObject({ code: 4100 })
  expect(await ask(other, { nonce: 'other-site-nonce' })).toMatchObject({ code: 4100 })
  // The page the user connected still gets one.
  expect((await ask(page)).result?.identityToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
})

test('a window of another origin that talks to the wallet frame directly gets nothing; a second kit is refused', async ({ page, request }) => {
  await signUp(page, request)
  expect(
    await page.evaluate(() =>
      Promise.resolve()
        .then(() => window.WalletKit!.createWalletKit({ appId: 'demo' }))
        .then(
          () => 'created',
          (e: Error) => e.message,
        ),
    ),
  ).toContain('already exists')

  // A frame of another origin (opaque: data:) in the signed-in page posts the bridge's handshake and
  // an identityToken call to every other frame of the page, the wallet frame among them, and records
  // what those frames send back. Its listener is proven by the page's answer to a ping.
  // What holds here is Penpal's own check that a message comes from window.parent (the frame's
  // allowed origin set to '*' still passes), and the frame answers only window.parent: this pins
  // that against a Penpal upgrade. The page's side of the same forgery, which our own checks hold,
  // is identity-token-red-team.spec.ts.
  const heard = await page.evaluate(
    () =>
      new Promise<{ fromFrames: unknown[]; frames: number; pong: boolean }>((resolve) => {
        const attacker = document.createElement('iframe')
        attacker.src = `data:text/html,${encodeURIComponent(`<script>
          const fromFrames = []
          let pong = false
          const frames = [...Array(parent.frames.length).keys()].map((i) => parent.frames[i]).filter((w) => w !== window)
          addEventListener('message', (e) => {
            if (e.source === parent && e.data === 'pong') pong = true
            else if (frames.includes(e.source)) fromFrames.push(e.data)
          })
          parent.postMessage('ping', '*')
          for (const w of frames) {
            w.postMessage({ namespace: 'penpal', type: 'SYN', participantId: 'zzzzzzzz' }, '*')
            w.postMessage({ namespace: 'penpal', type: 'ACK2' }, '*')
            w.postMessage({ namespace: 'penpal', type: 'CALL', id: 1, methodPath: ['identityToken'], args: [undefined] }, '*')
          }
          setTimeout(() => parent.postMessage({ attacker: { fromFrames, frames: frames.length, pong } }, '*'), 2000)
        </script>`)}`
        addEventListener('message', (e) => {
          if (e.data === 'ping') (e.source as Window).postMessage('pong', '*')
          else if (e.data && typeof e.data === 'object' && 'attacker' in e.data) resolve(e.data.attacker)
        })
        document.body.append(attacker)
      }),
  )
  // It posted to the wallet frame (at least) and could hear answers; none came.
  expect(heard.pong).toBe(true)
  expect(heard.frames).toBeGreaterThanOrEqual(1)
  expect(heard.fromFrames).toEqual([])
  // The page's own kit still works.
  expect((await ask(page)).result?.identityToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
})
