// Size benchmark only: what a page imports to talk to a frame with Penpal (the library our bridge is built on).
export { connect, WindowMessenger } from 'penpal'
