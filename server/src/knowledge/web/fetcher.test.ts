import type dns from 'node:dns';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedLookup, type ConnectLookup } from '../../net/address-guard.js';
import { createFetcher, decodeBody, FetchError, type Fetcher } from './fetcher.js';
import { fakeSite, type FakeSite } from '../../../test/fake-site.js';

const sites: FakeSite[] = [];
const fetchers: Fetcher[] = [];
afterEach(async () => {
  for (const f of fetchers.splice(0)) f.close();
  for (const s of sites.splice(0)) await s.close();
});

async function site(routes: Parameters<typeof fakeSite>[0]) {
  const s = await fakeSite(routes);
  sites.push(s);
  return s;
}
function fetcher(opts: Partial<Parameters<typeof createFetcher>[0]> = {}) {
  const f = createFetcher({ allowPrivate: true, userAgent: 'ParleyBot/1.0 (+http://test)', timeoutMs: 2_000, ...opts });
  fetchers.push(f);
  return f;
}
const failure = async (p: Promise<unknown>): Promise<FetchError> => {
  try {
    await p;
  } catch (err) {
    if (err instanceof FetchError) return err;
    throw err;
  }
  throw new Error('expected a FetchError');
};

describe('fetching', () => {
  it('decodes gzip, deflate and brotli bodies', async () => {
    const html = '<p>Compressed content ünïcödé</p>'.repeat(50);
    const web = await site({
      '/gz': { headers: { 'content-encoding': 'gzip' }, body: zlib.gzipSync(html) },
      '/deflate': { headers: { 'content-encoding': 'deflate' }, body: zlib.deflateSync(html) },
      '/br': { headers: { 'content-encoding': 'br' }, body: zlib.brotliCompressSync(html) },
      '/broken': { headers: { 'content-encoding': 'gzip' }, body: 'not gzip at all' },
    });
    const f = fetcher();
    for (const p of ['/gz', '/deflate', '/br']) {
      const res = await f.fetch(`${web.origin}${p}`);
      expect(res.status).toBe(200);
      expect(decodeBody(res.body as Buffer, res.mime, res.charset), p).toBe(html);
    }
    expect((await failure(f.fetch(`${web.origin}/broken`))).kind).toBe('invalid');
  });

  it('finds the charset: header, <meta>, byte-order mark, else UTF-8 when valid and windows-1252 when not', () => {
    expect(decodeBody(Buffer.from('Café crème à Köln', 'latin1'), 'text/html', 'ISO-8859-1')).toBe('Café crème à Köln');
    expect(decodeBody(Buffer.from('Café', 'latin1'), 'text/html', 'latin1')).toBe('Café');
    // latin1 on the web is windows-1252: 0x80-0x9F are € and curly quotes, not C1 controls.
    expect(decodeBody(Buffer.from([0x93, 0x48, 0x69, 0x94, 0x20, 0x80, 0x35, 0x85]), 'text/html', 'iso-8859-1')).toBe('“Hi” €5…');
    expect(decodeBody(Buffer.from('<meta charset="windows-1252"><p>Caf\xe9 \x80</p>', 'latin1'), 'text/html', null)).toBe(
      '<meta charset="windows-1252"><p>Café €</p>',
    );
    expect(
      decodeBody(
        Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>\xfcber</p>', 'latin1'),
        'text/html',
        null,
      ),
    ).toContain('<p>über</p>');
    expect(decodeBody(Buffer.from('\ufeffBOM text é', 'utf8'), 'text/plain', 'latin1')).toBe('BOM text é');
    expect(decodeBody(Buffer.from('plain é', 'utf8'), 'text/plain', null)).toBe('plain é');
    expect(decodeBody(Buffer.from('undeclared caf\xe9', 'latin1'), 'text/plain', null)).toBe('undeclared café');
    expect(decodeBody(Buffer.from('utf8 header é', 'utf8'), 'text/html', 'no-such-charset')).toBe('utf8 header é');
  });

  it('refuses bodies over the limit (declared or streamed) and pages that do not answer in time', async () => {
    const big = 'x'.repeat(20_000);
    const web = await site({
      '/declared': big,
      '/chunked': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write(big);
        res.end(big);
      },
      '/bomb': { headers: { 'content-encoding': 'gzip' }, body: zlib.gzipSync('y'.repeat(1_000_000)) },
      '/hang': () => {
        /* never answers */
      },
    });
    const f = fetcher({ maxBytes: 10_000, timeoutMs: 300 });
    for (const p of ['/declared', '/chunked', '/bomb']) {
      const err = await failure(f.fetch(`${web.origin}${p}`));
      expect(err.kind, p).toBe('too_large');
      expect(err.message).toContain('is larger than 10 KiB');
    }
    const t0 = Date.now();
    const err = await failure(f.fetch(`${web.origin}/hang`));
    expect(err).toMatchObject({ kind: 'timeout', transient: true });
    expect(Date.now() - t0).toBeLessThan(1_500);
    const cut = await f.fetch(`${web.origin}/chunked`, { truncate: true });
    expect(cut.body?.length).toBe(10_000);
  });

  it('follows at most 5 redirects, relative ones included; a crawl can insist on its origin; aborts on signal', async () => {
    const other = await site({ '/': 'elsewhere' });
    const routes: Record<string, Parameters<FakeSite['set']>[1]> = {
      '/r0': { status: 301, headers: { location: '/r1' } },
      '/final': 'landed',
      '/loop': { status: 302, headers: { location: '/loop' } },
      '/out': { status: 307, headers: { location: `${other.origin}/` } },
      '/ftp': { status: 302, headers: { location: 'ftp://example.com/' } },
      '/slow': { body: 'slow', delayMs: 1_000 },
    };
    for (let i = 1; i < 5; i++) routes[`/r${i}`] = { status: 302, headers: { location: i === 4 ? 'final' : `r${i + 1}` } };
    const web = await site(routes);
    const f = fetcher();
    const res = await f.fetch(`${web.origin}/r0`);
    expect(res).toMatchObject({ url: `${web.origin}/final`, status: 200, redirects: 5 });
    expect((await failure(f.fetch(`${web.origin}/loop`))).message).toBe(`more than 5 redirects from ${web.origin}/loop`);
    expect((await f.fetch(`${web.origin}/out`)).url).toBe(`${other.origin}/`);
    expect(await failure(f.fetch(`${web.origin}/out`, { sameOrigin: true }))).toMatchObject({
      kind: 'off_origin',
      url: `${other.origin}/`,
    });
    expect((await failure(f.fetch(`${web.origin}/ftp`))).message).toContain('redirects to a ftp: URL');
    const noFollow = await f.fetch(`${web.origin}/out`, { followRedirects: false });
    expect(noFollow).toMatchObject({ status: 307, body: null, headers: { location: `${other.origin}/` } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect((await failure(f.fetch(`${web.origin}/slow`, { signal: controller.signal }))).kind).toBe('aborted');
  });
});

describe('the address guard at every hop', () => {
  /** DNS where `public.test` is "public" (let through unchecked), every other name resolves to 127.0.0.1. */
  function dnsWithOnePublicName(): ConnectLookup {
    const resolve = (_h: string, _o: dns.LookupAllOptions, cb: (e: NodeJS.ErrnoException | null, a: dns.LookupAddress[]) => void) =>
      cb(null, [{ address: '127.0.0.1', family: 4 }]);
    const guarded = guardedLookup({ allowPrivate: false, resolve });
    return (hostname, options, callback) => {
      if (hostname === 'public.test') {
        if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
        else callback(null, '127.0.0.1', 4);
        return;
      }
      guarded(hostname, options, callback);
    };
  }

  it('a signal already aborted when the request is made fails it as aborted, with no stray socket error', async () => {
    // The job was stopped between two pages (shutdown, document deleted, lease lost). Destroying the
    // request before it had an error listener made its "socket hang up" an uncaught exception.
    const web = await site({ '/': '<p>never fetched</p>' });
    const f = fetcher();
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown): void => {
      uncaught.push(err);
    };
    process.on('uncaughtException', onUncaught);
    try {
      const controller = new AbortController();
      controller.abort();
      expect((await failure(f.fetch(`${web.origin}/`, { signal: controller.signal }))).kind).toBe('aborted');
      await new Promise((r) => setTimeout(r, 50)); // the destroyed request's error comes a tick later
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect(web.requests).toEqual([]);
  });

  it('checks redirects, not just the first URL: to a name resolving privately, to a literal, to localhost', async () => {
    const web = await site({
      '/ok': 'public page',
      '/to-name': { status: 302, headers: { location: '' } },
      '/to-literal': { status: 302, headers: { location: '' } },
      '/to-localhost': { status: 302, headers: { location: '' } },
      '/to-metadata': { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
    });
    web.set('/to-name', { status: 302, headers: { location: `http://internal.test:${web.port}/ok` } });
    web.set('/to-literal', { status: 302, headers: { location: `http://127.0.0.1:${web.port}/ok` } });
    web.set('/to-localhost', { status: 301, headers: { location: `http://localhost:${web.port}/ok` } });
    const f = fetcher({ allowPrivate: false, lookup: dnsWithOnePublicName() });
    const base = `http://public.test:${web.port}`;
    expect((await f.fetch(`${base}/ok`)).status).toBe(200);
    const name = await failure(f.fetch(`${base}/to-name`));
    expect(name).toMatchObject({
      kind: 'blocked',
      transient: false,
      message: 'internal.test resolves to 127.0.0.1, a loopback address: refused (set FETCH_ALLOW_PRIVATE=true to allow)',
    });
    expect((await failure(f.fetch(`${base}/to-literal`))).message).toBe(
      `http://127.0.0.1:${web.port}/ok must not point at a loopback address (set FETCH_ALLOW_PRIVATE=true to allow)`,
    );
    expect((await failure(f.fetch(`${base}/to-localhost`))).message).toContain('must not point at localhost');
    expect((await failure(f.fetch(`${base}/to-metadata`))).message).toContain('must not point at a link-local address');
    expect(web.requests.filter((r) => r === '/ok')).toHaveLength(1); // only the first, allowed fetch arrived
    expect(f.urlProblem('http://192.168.1.10/')).toContain('private address');
    expect(f.urlProblem('https://example.com/')).toBeNull();
  });
});
