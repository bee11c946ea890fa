import { expect, type Page } from '@playwright/test'
import jsQR from 'jsqr'
import { frameOf, openConnect, providerUrl } from './helpers.ts'
import { click } from './click.ts'

/** Opens the connect modal on a host page (the demo by default) and picks a WalletConnect wallet from 'More Options'. */
export async function openPairing(page: Page, wallet = 'Sandbox Wallet', path = '/demo/'): Promise<void> {
  await page.goto(path)
  await openConnect(page)
  const frame = frameOf(page)
  await click(frame.getByRole('button', { name: 'More Options' }))
  await click(frame.getByRole('button', { name: wallet }))
  await expect(frame.getByRole('heading', { name: 'Scan QR Code' })).toBeVisible()
}

/**
 * Reads the QR the 'Scan QR Code' page shows, as a phone camera would: the SVG drawn to a canvas in
 * the frame, its pixels decoded here. Nothing of the page's own state is asked.
 */
export async function scanQr(page: Page): Promise<string> {
  const frame = page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
  await expect(frameOf(page).getByTestId('pairing-qr').locator('svg')).toBeVisible()
  const image = await frame.evaluate(async () => {
    const svg = document.querySelector('[data-testid=pairing-qr] svg') as SVGSVGElement
    // A data: URL: the frame's CSP allows data: images (not blob:).
    const img = new Image()
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`
    await img.decode()
    const canvas = document.createElement('canvas')
    canvas.width = 350
    canvas.height = 350
    const ctx = canvas.getContext('2d')!
    ctx.drawImage(img, 0, 0, 350, 350)
    return { width: 350, height: 350, data: Array.from(ctx.getImageData(0, 0, 350, 350).data) }
  })
  const code = jsQR(Uint8ClampedArray.from(image.data), image.width, image.height)
  if (!code) throw new Error('The QR code did not decode')
  return code.data
}

/** The sandbox wallet page, opened on its universal link with `uri` (a phone that scanned the QR). */
export async function openWallet(page: Page, uri: string): Promise<Page> {
  const wallet = await page.context().newPage()
  await wallet.goto(`${providerUrl}/dev/wallet/?uri=${encodeURIComponent(uri)}`)
  await expect(wallet.locator('body[data-ready=true]')).toBeAttached({ timeout: 30_000 })
  return wallet
}

/** Approves (or rejects) what the sandbox wallet shows first: a session proposal or a request. */
export async function decide(wallet: Page, kind: 'proposal' | 'request', choice: 'Approve' | 'Reject'): Promise<void> {
  const item = wallet.getByTestId(kind).first()
  await expect(item).toBeVisible({ timeout: 20_000 })
  await click(item.getByRole('button', { name: choice }))
  await expect(item).toBeHidden()
}

export const walletAddress = async (wallet: Page) => (await wallet.getByTestId('wallet-address').textContent()) as `0x${string}`
