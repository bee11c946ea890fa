import { describe, expect, test } from 'vitest'
import { count, expect400, signed, startRampSandbox } from './ramp-sandbox.fixture.ts'

// Red team (issue 21): a control character in a path parameter must be the control-character 400
// even when the rest of the path is not valid percent-encoding. decodeURIComponent refuses the
// whole path ('%00%ZZ'), but the router still decodes each valid escape of a parameter, so the
// route read the NUL (here a 404 "Order not found"; wherever it reaches PostgreSQL, a 500).

startRampSandbox()

describe('control characters in a path next to a broken escape', () => {
  test('%00 beside a malformed escape is a 400, nothing written', async () => {
    const before = await count('ramp_recipients')
    for (const id of ['%00%ZZ', 'x%00%', '%E0%A4%A%00', '%ZZ%7F']) {
      await expect400(signed('one', 'GET', `/onramp/detail/${id}`), /control characters/)
      await expect400(signed('one', 'PATCH', `/recipient/${id}`, { name: 'Ada' }), /control characters/)
      await expect400(signed('one', 'DELETE', `/recipient/${id}`), /control characters/)
    }
    expect(await count('ramp_recipients')).toBe(before)
  })
})
