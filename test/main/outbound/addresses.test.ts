import { describe, expect, it } from 'vitest';
import { nonPublicKind } from '../../../src-main/outbound/addresses';
import { allows, BadAllowance, parseAllowance } from '../../../src-main/outbound/allowance';

describe('nonPublicKind', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['10.1.2.3', 'a private (RFC 1918) address'],
    ['172.16.0.1', 'a private (RFC 1918) address'],
    ['192.168.1.1', 'a private (RFC 1918) address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'the unspecified address'],
    ['::1', 'a loopback address'],
    ['[::1]', 'a loopback address'],
    ['fc00::1', 'a unique local IPv6 address'],
    ['fd12:3456::1', 'a unique local IPv6 address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:a9fe:a9fe', 'a link-local address'],
    ['64:ff9b::7f00:1', 'a NAT64 address'],
    ['2002:7f00:1::', 'a 6to4 address'],
    ['224.0.0.1', 'a multicast address'],
    ['localhost', 'not an IP address'],
  ])('%s is %s', (address, kind) => {
    expect(nonPublicKind(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(nonPublicKind(address)).toBeUndefined();
  });
});

describe('the operator allowance', () => {
  const a = parseAllowance(['10.0.0.0/8', '127.0.0.1:4100', '[::1]:4100', 'sync.lan', 'Mail.LAN.:587', '::ffff:192.168.0.0/112']);

  it.each([
    [{ host: '10.9.9.9', address: '10.9.9.9', port: 5432 }, true],
    [{ host: '127.0.0.1', address: '127.0.0.1', port: 4100 }, true],
    [{ host: '127.0.0.1', address: '127.0.0.1', port: 4101 }, false],
    [{ host: '[::1]', address: '::1', port: 4100 }, true],
    [{ host: 'localhost', address: '::1', port: 80 }, false],
    [{ host: 'sync.lan', address: '172.20.7.7', port: 8443 }, true],
    [{ host: 'sync.lan.evil', address: '172.20.7.7', port: 8443 }, false],
    [{ host: 'mail.lan', address: '172.20.7.8', port: 587 }, true],
    [{ host: 'mail.lan', address: '172.20.7.8', port: 25 }, false],
    [{ host: 'x', address: '::ffff:10.1.1.1', port: 1 }, true],
    [{ host: 'x', address: '192.168.3.4', port: 1 }, true],
    [{ host: 'x', address: '169.254.169.254', port: 80 }, false],
  ])('%o → %s', (target, expected) => {
    expect(allows(a, target)).toBe(expected);
  });

  it.each(['10.0.0.0/33', 'http://x', 'a b', 'host:0', 'host:99999', '[zz]:1'])('refuses the entry %s', (entry) => {
    expect(() => parseAllowance([entry])).toThrow(BadAllowance);
  });
});
