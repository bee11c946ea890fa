import { createHash } from 'node:crypto'
import { Hono } from 'hono'
import type { Deps } from '../../context.ts'

// The chain icon service: /icons/chains/<network>.svg by wallet network name (the kit's chain list
// shows each chain's icon by that name, with a fallback image), drawn here so nothing is fetched from elsewhere. A name we have no icon for gets the fallback
// image (same URL, so an <img> never breaks) and `X-Icon-Fallback: 1`; /icons/fallback.svg is it too.

const known: Record<string, { color: string; label: string }> = {
  'local-1': { color: '#4f6ef7', label: 'L1' },
  'local-2': { color: '#e8833a', label: 'L2' },
  // The chain table's networks (sdk/chain-table.ts); its test checks that none is missing.
  ethereum: { color: '#627eea', label: 'ETH' },
  bnb: { color: '#f0b90b', label: 'BNB' },
  polygon: { color: '#8247e5', label: 'POL' },
  arbitrum: { color: '#28a0f0', label: 'ARB' },
  optimism: { color: '#ff0420', label: 'OP' },
  base: { color: '#0052ff', label: 'BASE' },
  avalanche: { color: '#e84142', label: 'AVAX' },
  fantom: { color: '#1969ff', label: 'FTM' },
  gnosis: { color: '#04795b', label: 'GNO' },
  celo: { color: '#35d07f', label: 'CELO' },
  linea: { color: '#121212', label: 'LIN' },
  scroll: { color: '#c9a36a', label: 'SCR' },
  zksync: { color: '#4e529a', label: 'ZK' },
  'polygon-zkevm': { color: '#7b3fe4', label: 'PZK' },
  mantle: { color: '#1c1c1c', label: 'MNT' },
  blast: { color: '#8f8a00', label: 'BLST' },
  moonbeam: { color: '#e1147b', label: 'GLMR' },
  opbnb: { color: '#c99400', label: 'OPB' },
  sepolia: { color: '#8a92b2', label: 'SEP' },
  holesky: { color: '#9b8ae6', label: 'HOL' },
  hoodi: { color: '#6f7bb0', label: 'HOO' },
  'bnb-testnet': { color: '#b08a08', label: 'tBNB' },
  'polygon-amoy': { color: '#6a3bb8', label: 'AMOY' },
  'arbitrum-sepolia': { color: '#1f7cbc', label: 'ARB' },
  'optimism-sepolia': { color: '#c8031a', label: 'OP' },
  'base-sepolia': { color: '#0041c2', label: 'BASE' },
  'avalanche-fuji': { color: '#b8353a', label: 'FUJI' },
  'linea-sepolia': { color: '#3d3d3d', label: 'LIN' },
  'scroll-sepolia': { color: '#a07f4f', label: 'SCR' },
  'zksync-sepolia': { color: '#3b3e78', label: 'ZK' },
  'mantle-sepolia': { color: '#3a3a3a', label: 'MNT' },
  'blast-sepolia': { color: '#6e6a00', label: 'BLST' },
  'opbnb-testnet': { color: '#9c7400', label: 'OPB' },
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

function badge(color: string, label: string): string {
  const size = label.length > 3 ? 22 : label.length > 2 ? 26 : 32
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="${color}"/>
<text x="32" y="32" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-weight="700" font-size="${size}" fill="#fff">${escapeXml(label)}</text></svg>`
}

const fallback = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#3a3a40"/>
<g fill="none" stroke="#c8c8d0" stroke-width="5" stroke-linecap="round"><rect x="13" y="25" width="22" height="14" rx="7"/><rect x="29" y="25" width="22" height="14" rx="7"/></g></svg>`

const headers = (svg: string) => ({
  'Content-Type': 'image/svg+xml',
  'Cache-Control': 'public, max-age=86400',
  ETag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 16)}"`,
  // Icons are shown by host pages and the widget alike; the SVG itself may run nothing.
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
})

export function iconRoutes(_deps: Deps) {
  return new Hono()
    .get('/fallback.svg', (c) => c.body(fallback, 200, headers(fallback)))
    .get('/chains/:file', (c) => {
      const network = c.req
        .param('file')
        .replace(/\.svg$/, '')
        .toLowerCase()
      // Own names only: `known['__proto__']` or `known.constructor` is no icon (it was a 500).
      const icon = Object.hasOwn(known, network) ? known[network] : undefined
      if (!icon) return c.body(fallback, 200, { ...headers(fallback), 'X-Icon-Fallback': '1' })
      const svg = badge(icon.color, icon.label)
      return c.body(svg, 200, headers(svg))
    })
}
