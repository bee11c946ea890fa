// Size benchmark only: what a host imports to get Magic's EIP-1193 provider.
export { Magic } from 'magic-sdk'
