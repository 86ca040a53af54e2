import { describe, expect, it } from 'vitest';
import { refusedAddressReason } from '../../domain/automation/webhook-address.js';

// The address check alone: no connection is made to any of these.
describe('the webhook address check', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['fd00::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['2002:7f00:1::', '6to4'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['fd00:ec2::254', 'unique local'],
  ])('refuses %s (%s)', (address, words) => {
    expect(refusedAddressReason(address)).toContain(words);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    'allows the public address %s',
    (address) => {
      expect(refusedAddressReason(address)).toBeUndefined();
    },
  );

  it('refuses what is not an address', () => {
    expect(refusedAddressReason('example.com')).toContain('not an IP address');
  });
});
