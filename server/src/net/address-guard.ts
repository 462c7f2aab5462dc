import dns from 'node:dns';
import net from 'node:net';
import { parseIp, parseIpRule, type IpRule } from '../lib/ip.js';

/**
 * The private-address guard of every outbound connection a tenant can aim (webhooks, web pages
 * to ingest, model base URLs): the ranges that reach this host, its network or its cloud's
 * metadata service instead of the public internet. Each caller has its own setting that lifts
 * the guard (WEBHOOK_ALLOW_PRIVATE, FETCH_ALLOW_PRIVATE, MODEL_ALLOW_PRIVATE…) and names it in
 * its messages: messages here carry no hint, callers add theirs (`withHint`).
 * IPv4 rules cover IPv4-mapped IPv6 (::ffff:a.b.c.d) too: lib/ip compares in one space.
 */
const BLOCKED: { rule: IpRule; reason: string }[] = (
  [
    ['0.0.0.0/8', 'unspecified'],
    ['10.0.0.0/8', 'private'],
    ['100.64.0.0/10', 'private (carrier-grade NAT)'],
    ['127.0.0.0/8', 'loopback'],
    ['169.254.0.0/16', 'link-local'],
    ['172.16.0.0/12', 'private'],
    ['192.0.0.0/24', 'reserved'],
    ['192.168.0.0/16', 'private'],
    ['198.18.0.0/15', 'reserved (benchmarking)'],
    ['224.0.0.0/4', 'multicast'],
    ['240.0.0.0/4', 'reserved'],
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['::/96', 'reserved (IPv4-compatible)'],
    ['100::/64', 'reserved (discard)'],
    ['64:ff9b:1::/48', 'reserved (local NAT64)'],
    ['2001::/32', 'reserved (Teredo)'],
    ['fc00::/7', 'private (unique local)'],
    ['fe80::/10', 'link-local'],
    ['fec0::/10', 'link-local (site-local)'],
    ['ff00::/8', 'multicast'],
  ] as const
).map(([cidr, reason]) => ({ rule: parseIpRule(cidr) as IpRule, reason }));

/** IPv6 forms that carry an IPv4 address inside: the embedded address is judged instead. */
const EMBEDDING: { rule: IpRule; extract: (v: bigint) => bigint }[] = [
  { rule: parseIpRule('64:ff9b::/96') as IpRule, extract: (v) => v & 0xffffffffn }, // NAT64
  { rule: parseIpRule('2002::/16') as IpRule, extract: (v) => (v >> 80n) & 0xffffffffn }, // 6to4
];

const V4_MAPPED = 0xffffn << 32n;

function inRule(value: bigint, rule: IpRule): boolean {
  const shift = BigInt(128 - rule.prefixBits);
  return value >> shift === rule.value >> shift;
}

function reasonFor(value: bigint): string | null {
  for (const { rule, extract } of EMBEDDING) {
    if (inRule(value, rule)) return reasonFor(V4_MAPPED | extract(value));
  }
  return BLOCKED.find((b) => inRule(value, b.rule))?.reason ?? null;
}

/** Why an address may not be connected to (`"loopback"`, `"private"`…), or null when it may. */
export function blockedAddressReason(ip: string): string | null {
  const parsed = parseIp(ip);
  return parsed ? reasonFor(parsed.value) : 'not an IP address';
}

/** A connection refused by the guard; `message` says what and why, `withHint` adds the caller's setting. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_BLOCKED_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(`${host === address ? address : `${host} resolves to ${address}`}, a ${reason} address: refused`);
    this.name = 'BlockedAddressError';
  }

  /** The message with the setting that would allow it, e.g. `set WEBHOOK_ALLOW_PRIVATE=true to allow`. */
  withHint(hint: string): string {
    return `${this.message} (${hint})`;
  }
}

/** `[::1]` → `::1`; WHATWG URL parsing has already turned `2130706433` and `0x7f.1` into dotted quads. */
export const bareHost = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');

const isLocalhostName = (host: string): boolean => /(^|\.)localhost\.?$/i.test(host);

/** What is wrong with an outbound URL; `blocked`: refused for where it points (the caller's setting can allow it). */
export interface UrlProblem {
  message: string;
  blocked: boolean;
}

/**
 * Checks a URL a tenant gave (a webhook, a page to fetch, a model base URL) before any
 * connection: http(s), no credentials, and (unless private targets are allowed) no literal
 * private address or localhost name. Names are resolved, and checked again, at every
 * connection (`guardedLookup`). Returns the problem, or null.
 */
export function outboundUrlProblem(raw: string, allowPrivate: boolean): UrlProblem | null {
  const shape = (message: string): UrlProblem => ({ message, blocked: false });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return shape('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return shape('must be an http(s) URL');
  if (url.username || url.password) return shape('must not carry credentials (user:password@)');
  if (!url.hostname) return shape('must name a host');
  if (allowPrivate) return null;
  const host = bareHost(url.hostname);
  if (isLocalhostName(host)) return { message: 'must not point at localhost', blocked: true };
  if (net.isIP(host)) {
    const reason = blockedAddressReason(host);
    if (reason) return { message: `must not point at a ${reason} address`, blocked: true };
  }
  return null;
}

/** A problem as a sentence, with the setting that lifts the guard when it is about the address. */
export function describeUrlProblem(problem: UrlProblem, hint: string): string {
  return problem.blocked ? `${problem.message} (${hint})` : problem.message;
}

/** `dns.lookup` with `all: true`: what the guard resolves names with (tests pass a fake DNS). */
export type LookupAll = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

/** The shape `net.connect({lookup})` calls: with `all` (happy eyeballs) or without. */
export type ConnectLookup = (
  hostname: string,
  options: dns.LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
) => void;

/**
 * A `lookup` for a socket's connect that resolves the name and refuses the connection when any
 * resolved address is blocked. It runs when the socket connects, so a name that resolved to a
 * public address when the URL was saved and to 127.0.0.1 now (DNS rebinding) is still refused.
 */
export function guardedLookup(opts: { allowPrivate: boolean; resolve?: LookupAll }): ConnectLookup {
  const resolve: LookupAll = opts.resolve ?? ((host, o, cb) => dns.lookup(host, o, cb));
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      if (!addresses.length) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      if (!opts.allowPrivate) {
        for (const a of addresses) {
          const reason = blockedAddressReason(a.address);
          if (reason) return callback(new BlockedAddressError(hostname, a.address, reason), '');
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as dns.LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** The check for a URL whose host is an IP literal: connections to literals skip `lookup`. */
export function assertLiteralHostAllowed(hostname: string, allowPrivate: boolean): void {
  const host = bareHost(hostname);
  if (allowPrivate || !net.isIP(host)) return;
  const reason = blockedAddressReason(host);
  if (reason) throw new BlockedAddressError(host, host, reason);
}
