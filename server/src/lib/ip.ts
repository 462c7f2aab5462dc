import net from 'node:net';

/** An address as a 128-bit number; IPv4 (and IPv4-mapped IPv6) live in the ::ffff:0:0/96 range. */
interface Parsed {
  value: bigint;
  v4: boolean;
}

function parseV4(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseV6(ip: string): bigint {
  let text = ip;
  // A trailing dotted quad (::ffff:1.2.3.4) becomes two hextets.
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) {
    const v4 = parseV4(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...Array<string>(zeros).fill('0'), ...tailParts];
  return parts.reduce((acc, h) => (acc << 16n) | BigInt(parseInt(h, 16)), 0n);
}

const V4_MAPPED_PREFIX = 0xffffn << 32n;

export function parseIp(ip: string): Parsed | null {
  const clean = ip.replace(/%.*$/, ''); // zone ids (fe80::1%eth0) do not matter for matching
  const kind = net.isIP(clean);
  if (kind === 4) return { value: V4_MAPPED_PREFIX | parseV4(clean), v4: true };
  if (kind === 6) {
    const value = parseV6(clean);
    return { value, v4: value >> 32n === 0xffffn };
  }
  return null;
}

export interface IpRule {
  value: bigint;
  prefixBits: number;
}

/** Parses `1.2.3.4`, `10.0.0.0/8`, `2001:db8::/32`, `::ffff:10.0.0.0/104`; null when invalid. */
export function parseIpRule(rule: string): IpRule | null {
  const [addr = '', bits] = rule.trim().split('/');
  const parsed = parseIp(addr);
  if (!parsed) return null;
  const isV4Text = net.isIP(addr) === 4;
  const max = isV4Text ? 32 : 128;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  const n = bits === undefined ? max : Number(bits);
  if (n > max) return null;
  // Everything is compared in the IPv6 space: a v4 prefix of n bits is 96 + n there.
  return { value: parsed.value, prefixBits: isV4Text ? 96 + n : n };
}

export function ipMatches(ip: string, rules: readonly IpRule[]): boolean {
  const parsed = parseIp(ip);
  if (!parsed) return false;
  return rules.some((r) => {
    const shift = BigInt(128 - r.prefixBits);
    return parsed.value >> shift === r.value >> shift;
  });
}
