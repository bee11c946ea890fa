import type { AppConfig } from '../../sdk/index.ts'
import { useT } from '../context.ts'

/**
 * The connect home's logo: the provider's brand when app config's `useWalletKitBrand` flag is on,
 * else the app's own logo (`logoUrl`); the brand too when the app names no logo.
 */
export function Logo({ config }: { config: Pick<AppConfig, 'useWalletKitBrand' | 'logoUrl'> }) {
  const t = useT()
  if (!config.useWalletKitBrand && config.logoUrl) return <img className="wk-logo" src={config.logoUrl} alt={t.appLogo} />
  return (
    <svg className="wk-logo" viewBox="0 0 64 64" role="img" aria-label="Wallet Kit">
      <defs>
        <linearGradient id="wk-g" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7c5cff" />
          <stop offset="1" stopColor="#22d3ee" />
        </linearGradient>
      </defs>
      <rect x="4" y="4" width="56" height="56" rx="16" fill="url(#wk-g)" />
      <path
        d="M18 24h28a4 4 0 0 1 4 4v14a4 4 0 0 1-4 4H18a4 4 0 0 1-4-4V22a4 4 0 0 1 4-4h22"
        fill="none"
        stroke="#fff"
        strokeWidth="3.5"
        strokeLinecap="round"
      />
      <circle cx="41" cy="35" r="3" fill="#fff" />
    </svg>
  )
}
