import { createServer } from 'node:net'
import { expect, test } from 'vitest'
import { freePort } from './ports.ts'

test('freePort: any free port, or the one asked for while it is free; a taken one is refused', async () => {
  const any = await freePort()
  expect(any).toBeGreaterThan(0)
  expect(await freePort(any)).toBe(any)
  const holder = createServer()
  await new Promise<void>((listening) => holder.listen(any, '127.0.0.1', listening))
  try {
    await expect(freePort(any)).rejects.toMatchObject({ code: 'EADDRINUSE' })
  } finally {
    await new Promise((closed) => holder.close(closed))
  }
})
