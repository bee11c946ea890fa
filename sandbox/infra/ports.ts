import { createServer } from 'node:net'

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (anvil cannot take port 0 and report back):
 * any free one, or `port` itself if it is free (else the promise rejects).
 */
export function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      const address = server.address()
      const bound = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(bound))
    })
  })
}
