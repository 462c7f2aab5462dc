import type dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { blockedAddressReason, describeUrlProblem, guardedLookup, outboundUrlProblem, type ConnectLookup } from './address-guard.js';

/** A fake DNS: answers from a table, or from a function for rebinding. */
function fakeDns(answer: (host: string) => string[]) {
  const calls: string[] = [];
  const resolve = (host: string, _o: dns.LookupAllOptions, cb: (err: NodeJS.ErrnoException | null, a: dns.LookupAddress[]) => void) => {
    calls.push(host);
    const list = answer(host);
    if (!list.length) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
    cb(
      null,
      list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  return { resolve, calls };
}

function lookupOnce(
  lookup: ConnectLookup,
  host: string,
  all: boolean,
): Promise<{ err: NodeJS.ErrnoException | null; address: string | dns.LookupAddress[]; family?: number | undefined }> {
  return new Promise((resolve) => lookup(host, { all }, (err, address, family) => resolve({ err, address, family })));
}

describe('blocked addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12::1', 'private (unique local)'],
    ['100.64.0.1', 'private (carrier-grade NAT)'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    // IPv4-mapped and other IPv6 spellings of IPv4 addresses are judged as the IPv4 inside.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['::127.0.0.1', 'reserved (IPv4-compatible)'],
  ])('%s is %s', (ip, reason) => {
    expect(blockedAddressReason(ip)).toBe(reason);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:2800:220:1:248:1893:25c8:1946',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is allowed', (ip) => {
    expect(blockedAddressReason(ip)).toBeNull();
  });
});

describe('outbound URL check (before any connection)', () => {
  it('tells problems of shape from refusals of the address, which a setting can lift', () => {
    expect(outboundUrlProblem('ftp://example.com/', false)).toEqual({ message: 'must be an http(s) URL', blocked: false });
    expect(outboundUrlProblem('http://a:b@example.com/', true)).toEqual({
      message: 'must not carry credentials (user:password@)',
      blocked: false,
    });
    expect(outboundUrlProblem('http://localhost:3000/', false)).toEqual({ message: 'must not point at localhost', blocked: true });
    expect(outboundUrlProblem('http://[::1]/', false)).toEqual({ message: 'must not point at a loopback address', blocked: true });
    expect(outboundUrlProblem('http://[::1]/', true)).toBeNull();
    expect(outboundUrlProblem('https://example.com/x', false)).toBeNull();
    expect(describeUrlProblem({ message: 'must not point at localhost', blocked: true }, 'set X=true to allow')).toBe(
      'must not point at localhost (set X=true to allow)',
    );
    expect(describeUrlProblem({ message: 'must be an http(s) URL', blocked: false }, 'set X=true to allow')).toBe('must be an http(s) URL');
  });
});

describe('connect-time address check (guarded lookup)', () => {
  it('refuses a name whose answer is private, at every lookup: DNS rebinding', async () => {
    let answers = 0;
    const dnsFake = fakeDns(() => (answers++ === 0 ? ['93.184.216.34'] : ['127.0.0.1']));
    const lookup = guardedLookup({ allowPrivate: false, resolve: dnsFake.resolve });
    const first = await lookupOnce(lookup, 'rebind.example', false);
    expect(first.err).toBeNull();
    expect(first.address).toBe('93.184.216.34');
    expect(first.family).toBe(4);
    const second = await lookupOnce(lookup, 'rebind.example', false);
    expect(second.err?.message).toBe('rebind.example resolves to 127.0.0.1, a loopback address: refused');
    expect(dnsFake.calls).toEqual(['rebind.example', 'rebind.example']);
  });

  it('refuses when any one of several answers is blocked, in both lookup forms', async () => {
    const lookup = guardedLookup({ allowPrivate: false, resolve: fakeDns(() => ['93.184.216.34', '::ffff:10.0.0.1']).resolve });
    expect((await lookupOnce(lookup, 'mixed.example', true)).err?.message).toContain('private');
    expect((await lookupOnce(lookup, 'mixed.example', false)).err?.message).toContain('private');
  });

  it('passes every answer through when they are public (happy eyeballs asks for all)', async () => {
    const lookup = guardedLookup({ allowPrivate: false, resolve: fakeDns(() => ['2606:2800:220:1::1', '93.184.216.34']).resolve });
    const all = await lookupOnce(lookup, 'ok.example', true);
    expect(all.err).toBeNull();
    expect(all.address).toEqual([
      { address: '2606:2800:220:1::1', family: 6 },
      { address: '93.184.216.34', family: 4 },
    ]);
  });

  it('lets private answers through with WEBHOOK_ALLOW_PRIVATE=true, and reports resolution failures', async () => {
    const lookup = guardedLookup({ allowPrivate: true, resolve: fakeDns((h) => (h === 'inside.example' ? ['10.0.0.7'] : [])).resolve });
    expect((await lookupOnce(lookup, 'inside.example', false)).address).toBe('10.0.0.7');
    expect((await lookupOnce(lookup, 'nowhere.example', false)).err?.code).toBe('ENOTFOUND');
  });
});
