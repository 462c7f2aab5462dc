import { describe, expect, it } from 'vitest';
import { ipMatches, parseIpRule, type IpRule } from './ip.js';

const rules = (...r: string[]): IpRule[] =>
  r.map((x) => {
    const parsed = parseIpRule(x);
    if (!parsed) throw new Error(`bad rule ${x}`);
    return parsed;
  });

describe('ip rules', () => {
  it('matches exact IPv4 and IPv4 CIDR blocks', () => {
    expect(ipMatches('203.0.113.7', rules('203.0.113.7'))).toBe(true);
    expect(ipMatches('203.0.113.8', rules('203.0.113.7'))).toBe(false);
    expect(ipMatches('10.20.30.40', rules('10.0.0.0/8'))).toBe(true);
    expect(ipMatches('11.0.0.1', rules('10.0.0.0/8'))).toBe(false);
    expect(ipMatches('192.168.1.255', rules('192.168.1.0/24'))).toBe(true);
    expect(ipMatches('192.168.2.0', rules('192.168.1.0/24'))).toBe(false);
    expect(ipMatches('8.8.8.8', rules('0.0.0.0/0'))).toBe(true);
  });

  it('treats IPv4-mapped IPv6 as IPv4 in both directions', () => {
    expect(ipMatches('::ffff:10.1.2.3', rules('10.0.0.0/8'))).toBe(true);
    expect(ipMatches('::ffff:a01:203', rules('10.1.2.3'))).toBe(true);
    expect(ipMatches('10.1.2.3', rules('::ffff:10.1.2.3'))).toBe(true);
    expect(ipMatches('::ffff:11.1.2.3', rules('10.0.0.0/8'))).toBe(false);
  });

  it('matches IPv6 addresses and prefixes, including compressed forms', () => {
    expect(ipMatches('2001:db8::1', rules('2001:db8::/32'))).toBe(true);
    expect(ipMatches('2001:db9::1', rules('2001:db8::/32'))).toBe(false);
    expect(ipMatches('::1', rules('::1'))).toBe(true);
    expect(ipMatches('2001:0db8:0000:0000:0000:0000:0000:0001', rules('2001:db8::1'))).toBe(true);
    expect(ipMatches('fe80::1%eth0', rules('fe80::/10'))).toBe(true);
  });

  it('does not let an IPv4 /0 match IPv6 addresses', () => {
    expect(ipMatches('2001:db8::1', rules('0.0.0.0/0'))).toBe(false);
  });

  it('rejects malformed rules', () => {
    for (const bad of ['', 'abc', '10.0.0.0/33', '1.2.3.4/x', '2001:db8::/129', '300.1.1.1']) expect(parseIpRule(bad)).toBeNull();
  });
});
