import { describe, expect, test } from 'vitest'
import { ipKey } from './rate-limit.ts'

// Per-IP limits: one IPv4 address is one key, but one IPv6 subscriber gets a whole /64 (2^64
// addresses), so an IPv6 address counts by its /64.

describe('ipKey', () => {
  test.each([
    // All of loopback is one client: every 127.0.0.0/8 source and ::1 reach only this machine.
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::ffff:127.0.0.3', 'loopback'],
    ['::ffff:7f00:9', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['128.0.0.1', '128.0.0.1'],
    ['126.255.255.255', '126.255.255.255'],
    ['203.0.113.7', '203.0.113.7'],
    // IPv4-mapped IPv6 (a dual-stack socket) is the IPv4 address, in either spelling.
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['::1', 'loopback'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:eeee:dddd:cccc', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::198.51.100.1', '64:ff9b:0:0::/64'],
    ['unknown', 'unknown'],
    // Already a key: ipKey is idempotent, so a caller keying clientIp's answer again changes nothing.
    ['loopback', 'loopback'],
    ['2001:db8:1:2::/64', '2001:db8:1:2::/64'],
  ])('%s → %s', (address, key) => {
    expect(ipKey(address)).toBe(key)
  })

  test('every address of one /64 shares a key; the next /64 does not', () => {
    const keys = new Set(['2001:db8:aa:1::1', '2001:db8:aa:1::2', '2001:db8:aa:1:8000::', '2001:db8:aa:1:ffff:ffff:ffff:ffff'].map(ipKey))
    expect(keys.size).toBe(1)
    expect(ipKey('2001:db8:aa:2::1')).not.toBe(ipKey('2001:db8:aa:1::1'))
  })
})
