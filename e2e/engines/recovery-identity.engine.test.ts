import { verifyMessage } from 'viem'
import { describe, expect, it } from 'vitest'
import { verifyIdentityToken } from '../../sdk/identity.ts'
import type { Engine } from './engine.ts'
import { requestedEngines } from './engines.ts'
import { accounts, codeField, confirmInSecureWindow, emailField, frameElement, latestCode, startRequest, uniqueEmail, until, urls, useEngine } from './flows.ts'
import { askIdentityToken, hostLog, inboxCodes, nextCode, recordedKit, steady, storedSession } from './trust.ts'

/**
 * The trust flows a signed-in page relies on, in each engine, on one sign-up: the identity token a
 * back end verifies (the page sees the JWT and never the session), and the recovery file the wallet
 * offered at creation restoring the wallet after the session was lost (a damaged file refused first,
 * the session untouched). Passkeys are not here: their tests need the DevTools protocol's virtual
 * authenticator, which only Chromium has.
 */

/**
 * Keeps what the wallet-created page's Download gives (the object URL's blob and the file name the
 * link asks for) instead of handing it to the browser's download manager, which these drivers
 * cannot read back. Run in the frame before Download is clicked.
 */
const keepDownloads = `window.keptDownloads = []
const blobs = new Map()
const create = URL.createObjectURL
URL.createObjectURL = (blob) => {
  const url = create.call(URL, blob)
  blobs.set(url, blob)
  return url
}
const click = HTMLAnchorElement.prototype.click
HTMLAnchorElement.prototype.click = function () {
  const blob = blobs.get(this.href)
  if (!this.download || !blob) return click.call(this)
  const name = this.download
  blob.text().then((text) => window.keptDownloads.push({ name, text }))
}`

/**
 * Gives the recovery page a file as a drop on its zone (the page reads it as it reads a chosen
 * file): these drivers have no file chooser to fill in a cross-origin frame. Run in the frame.
 */
const dropFile = `const [name, text] = args
const zone = document.querySelector('[data-testid=recovery-drop]')
if (!zone) throw new Error('no drop zone on the recovery page')
const data = new DataTransfer()
data.items.add(new File([text], name))
zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data }))
return data.files.length`

/** Signs a new user up in the open connect modal, downloading the recovery file on the wallet-created page. */
async function signUpWithFile(engine: Engine, email: string): Promise<{ name: string; text: string }> {
  await engine.type('frame', emailField, email)
  await engine.click('frame', 'text=Continue')
  await engine.type('frame', codeField, await latestCode(urls().providerUrl, email))
  await engine.waitFor('frame', 'text=Download')
  await engine.run('frame', keepDownloads)
  await engine.click('frame', 'text=Download')
  const [file] = await until(
    () => engine.run<{ name: string; text: string }[]>('frame', 'return window.keptDownloads'),
    (kept) => kept.length > 0,
    'the recovery file from Download',
  )
  await engine.screenshot('page', 'recovery-wallet-created')
  await engine.click('frame', 'text=Done')
  await engine.waitFor('page', frameElement, { hidden: true })
  return file!
}

describe.each(requestedEngines())('%s: identity token and recovery', (name) => {
  const launch = useEngine(name)

  it('gives the page a token its back end verifies, never the session; after the session is lost the downloaded file restores the same wallet (a damaged one refused first), which then signs', async () => {
    const engine = await launch()
    const { providerUrl } = urls()
    const shot = (step: string) => engine.screenshot('page', `recovery-${step}`)
    await recordedKit(engine, 'demo')
    await engine.run('page', `window.WalletKit.kit.open('connect')`)
    await steady(engine, emailField)
    const email = uniqueEmail()
    const file = await signUpWithFile(engine, email)
    expect(file.name).toBe('wallet-recovery-secret.walletkit')
    expect(file.text).toMatch(/^0x[0-9a-f]{64}$/)
    const [address] = (await accounts(engine)) as `0x${string}`[]
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)

    // The identity token: for this app, environment, account and nonce; another app's back end refuses it.
    const nonce = `engine-${name}-${Date.now()}`
    const asked = await askIdentityToken(engine, { nonce })
    expect(asked.code, asked.message).toBeUndefined()
    const { identityToken, expiresAt } = asked.result!
    expect(Object.keys(asked.result!).sort()).toEqual(['expiresAt', 'identityToken'])
    const claims = await verifyIdentityToken(identityToken, { appId: 'demo', providerUrl, environment: 'production', nonce })
    expect(claims).toMatchObject({ appId: 'demo', environment: 'production', issuer: providerUrl, nonce, signInMethod: 'email' })
    expect(claims.walletAddress.toLowerCase()).toBe(address!.toLowerCase())
    expect(claims.expiresAt * 1000).toBe(Date.parse(expiresAt))
    await expect(verifyIdentityToken(identityToken, { appId: 'stepup', providerUrl, environment: 'production' })).rejects.toThrow()
    await expect(verifyIdentityToken(identityToken, { appId: 'demo', providerUrl, environment: 'development' })).rejects.toThrow()
    await expect(verifyIdentityToken(identityToken, { appId: 'demo', providerUrl, environment: 'production', nonce: `${nonce}-other` })).rejects.toThrow()

    const first = await storedSession(engine)
    expect(first?.token.length).toBeGreaterThan(20)
    // The recorder hears the bridge's replies (the token's among them) and never the session's tokens.
    const heard = await hostLog(engine)
    expect(heard.filter((line) => line.includes(identityToken)).length).toBeGreaterThan(0)
    for (const secret of [first!.token, first!.refreshToken]) expect(heard.filter((line) => line.includes(secret))).toEqual([])

    // The session is lost: signed out from the profile (ended on the service too), then signed in again.
    await engine.run('page', `window.WalletKit.kit.open('profile')`)
    await engine.click('frame', 'text=Disconnect Wallet')
    await until(
      () => accounts(engine),
      (list) => Array.isArray(list) && list.length === 0,
      'no account after the sign-out',
    )
    expect(await storedSession(engine)).toBeFalsy()
    const seen = (await inboxCodes(email)).length
    await engine.run('page', `window.WalletKit.kit.open('connect')`)
    await steady(engine, emailField)
    await engine.type('frame', emailField, email)
    await engine.click('frame', 'text=Continue')
    await engine.type('frame', codeField, await nextCode(email, seen))
    await engine.waitFor('page', frameElement, { hidden: true })
    expect(await accounts(engine)).toEqual([address])
    const second = await storedSession(engine)
    expect(second?.token).not.toBe(first!.token)

    // The profile's recovery page: a file cut short by one character is refused before any call.
    await engine.run('page', `window.WalletKit.kit.open('profile')`)
    // The row's text ends with its chevron (hidden from assistive tech, not from textContent).
    await engine.click('frame', 'text=Restore from recovery file›')
    await engine.waitFor('frame', '[data-testid=recovery-drop]')
    await shot('page')
    expect(await engine.run<number>('frame', dropFile, file.name, file.text.slice(0, -1))).toBe(1)
    expect(await engine.text('frame', 'form [role=alert]')).toBe('This file holds no recovery secret: it may be damaged.')
    expect(await engine.run<boolean>('frame', `return [...document.querySelectorAll('button[type=submit]')].every((b) => b.disabled)`)).toBe(true)
    await shot('damaged')
    expect(await storedSession(engine)).toEqual(second)

    // The downloaded file restores the wallet: the same address, a new session.
    await engine.run('frame', dropFile, file.name, file.text)
    expect(await engine.text('frame', 'form .wk-notice')).toBe(`Recovery file: ${file.name}`)
    await engine.waitFor('frame', 'form [role=alert]', { hidden: true, timeout: 1_000 })
    await engine.click('frame', 'text=Restore')
    await engine.waitFor('frame', '[data-testid=recovery-done]', { timeout: 20_000 })
    expect(await engine.text('frame', '[data-testid=recovery-done] [role=status]')).toBe('Access restored: this wallet is ready on this device.')
    expect(await engine.text('frame', '[data-testid=recovery-done] code')).toBe(address)
    await shot('done')
    const restored = await until(
      () => storedSession(engine),
      (session) => !!session && session.token !== second!.token,
      'the restored session stored',
    )
    expect(await accounts(engine)).toEqual([address])
    await engine.click('frame', 'text=Done')
    await engine.waitFor('frame', '[data-testid=profile-address]')
    await engine.click('frame', 'button[aria-label=Close]')
    await engine.waitFor('page', frameElement, { hidden: true })

    // The restored session signs (the confirmation in the secure window), and the signature verifies.
    const signing = startRequest(engine, 'personal_sign', ['0x6869', address])
    await engine.waitFor('frame', 'text=Sign Message')
    await confirmInSecureWindow(engine, 'recovery-sign')
    const signed = await signing
    expect(signed.result).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await verifyMessage({ address: address!, message: 'hi', signature: signed.result as `0x${string}` })).toBe(true)

    // Nothing of the secret or of any session reached the page.
    const log = await hostLog(engine)
    expect(log.some((line) => line.includes(signed.result as string))).toBe(true)
    for (const secret of [
      file.text,
      file.text.slice(2),
      first!.token,
      first!.refreshToken,
      second!.token,
      second!.refreshToken,
      restored!.token,
      restored!.refreshToken,
    ])
      expect(log.filter((line) => line.includes(secret))).toEqual([])
  })
})
