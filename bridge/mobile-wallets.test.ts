import { expect, test } from 'vitest'
import { mobileWallets, walletLink } from './mobile-wallets.ts'
import { checkOpenUrl, walletLinkSchemes } from './open-url.ts'

const uri =
  'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&expiryTimestamp=1700000300'

test('every mobile wallet the modal offers has a scheme the host may open (without a pairing in it), and every allowed scheme belongs to one', () => {
  for (const wallet of mobileWallets) {
    expect(checkOpenUrl(`${wallet.scheme}://`), wallet.name).toBeUndefined()
    expect(checkOpenUrl(wallet.universalLink), wallet.name).toBeUndefined()
  }
  expect([...mobileWallets.map((w) => w.scheme), 'wc'].sort()).toEqual([...walletLinkSchemes].sort())
})

test('the pairing URI is passed whole, encoded, to the app', () => {
  const metamask = mobileWallets.find((w) => w.id === 'metamask')!
  const link = walletLink(metamask, uri)
  expect(link.startsWith('metamask://wc?uri=wc%3A')).toBe(true)
  expect(new URL(link).searchParams.get('uri')).toBe(uri)
  expect(walletLink(metamask, uri, 'universal')).toBe(`https://metamask.app.link/wc?uri=${encodeURIComponent(uri)}`)
})
