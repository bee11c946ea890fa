// Size benchmark only: what a host imports to get Porto's EIP-1193 provider (Porto.create()).
export { Porto } from 'porto'
