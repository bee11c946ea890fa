import { ErrorCode } from './error-classes.ts'
import type { Hello, Welcome } from './methods.ts'

/**
 * Bumped on any breaking change to the methods or shapes in this folder. Checked at handshake.
 * 2: the frame's `check` method is gone (the host reads the method table itself) and the welcome
 * carries the chains the page is offered.
 */
export const PROTOCOL_VERSION = 2

/** The version part of the widget's answer to the host's hello: the same version, or a 4900 that says what to do. */
export function negotiate(hello: Hello, own: number = PROTOCOL_VERSION): Pick<Welcome, 'protocol'> {
  if (hello.protocol === own) return { protocol: own }
  throw {
    code: ErrorCode.disconnected,
    message: `Protocol version mismatch: the host speaks ${hello.protocol}, the wallet frame speaks ${own}. Load kit.js from the same provider that serves the frame.`,
  }
}
