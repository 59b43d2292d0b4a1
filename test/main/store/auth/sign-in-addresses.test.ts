import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../../src-main/store/auth/sessions';

/** Wrong passwords are counted per address; an IPv6 subscriber holds a whole /64, so the /64 is the address. */
describe('addressKey', () => {
  it.each([
    ['203.0.113.9', 'ip:203.0.113.9'],
    ['::ffff:203.0.113.9', 'ip:203.0.113.9'],
    ['2001:db8:1:2::1', 'ip:2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:fffe', 'ip:2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', 'ip:2001:db8:1:3::/64'],
  ])('%s counts as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});
