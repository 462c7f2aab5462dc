import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outboundUrlProblem, type LookupAll } from './address-guard.js';
import { NetError, createHttpClient, type HttpClient, type HttpClientOptions } from './client.js';

/** A local server answering by path; records each request's path and whether the client hung up. */
async function startServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: { path: string; remotePort: number | undefined; clientClosed: boolean }[] = [];
  const server = http.createServer((req, res) => {
    const record = { path: req.url ?? '/', remotePort: req.socket.remotePort, clientClosed: false };
    seen.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.clientClosed = true;
    });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Server = Awaited<ReturnType<typeof startServer>>;

/** A fake DNS: every name resolves to `address`. */
const resolvesTo =
  (address: string): LookupAll =>
  (_host: string, _o: dns.LookupAllOptions, cb: (err: NodeJS.ErrnoException | null, a: dns.LookupAddress[]) => void) => {
    cb(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  };

const failure = async (p: Promise<unknown>): Promise<NetError> => {
  try {
    await p;
  } catch (err) {
    if (err instanceof NetError) return err;
    throw err;
  }
  throw new Error('expected a NetError');
};

let server: Server;
const clients: HttpClient[] = [];
const client = (opts: HttpClientOptions = {}) => {
  const c = createHttpClient(opts);
  clients.push(c);
  return c;
};
const routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {};
beforeEach(async () => {
  server = await startServer((req, res) => {
    const route = routes[(req.url ?? '/').split('?')[0] as string];
    if (route) route(req, res);
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${req.method} ${req.url}`);
  });
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const k of Object.keys(routes)) delete routes[k];
  await server.close();
});

describe('the address guard, at connect time', () => {
  it('refuses a literal loopback address (IPv4 and IPv4-mapped IPv6) before connecting, unless private addresses are allowed', async () => {
    const guarded = client({
      guard: {
        allowPrivate: false,
        resolve: () => {
          throw new Error('literals are not looked up');
        },
      },
    });
    for (const url of [`${server.url}/a`, `http://[::ffff:127.0.0.1]:${server.port}/a`]) {
      const err = await failure(guarded.request(url));
      expect(err.kind, url).toBe('blocked');
      expect(err.blocked?.reason).toBe('loopback');
      expect(err.blocked?.withHint('set X=true to allow')).toMatch(
        /^(127\.0\.0\.1|::ffff:7f00:1), a loopback address: refused \(set X=true to allow\)$/,
      );
    }
    expect(server.seen).toEqual([]);
    const open = client({ guard: { allowPrivate: true } });
    expect(await (await open.request(`${server.url}/a`)).text()).toBe('hello GET /a');
  });

  it('refuses a name that resolves to 127.0.0.1: judged when connecting, where the URL check saw nothing wrong (DNS rebinding)', async () => {
    const url = `http://rebind.test:${server.port}/`;
    expect(outboundUrlProblem(url, false)).toBeNull();
    const guarded = client({ guard: { allowPrivate: false, resolve: resolvesTo('127.0.0.1') } });
    const err = await failure(guarded.request(url));
    expect(err).toMatchObject({ kind: 'blocked', message: 'rebind.test resolves to 127.0.0.1, a loopback address: refused' });
    expect(err.blocked).toMatchObject({ host: 'rebind.test', address: '127.0.0.1', reason: 'loopback' });
    const mapped = await failure(client({ guard: { allowPrivate: false, resolve: resolvesTo('::ffff:10.0.0.1') } }).request(url));
    expect(mapped.blocked?.reason).toBe('private');
    expect(server.seen).toEqual([]);
  });

  it('refuses localhost through the real resolver, and lets the same name through when private addresses are allowed', async () => {
    const err = await failure(client({ guard: { allowPrivate: false } }).request(`http://localhost:${server.port}/`));
    expect(err.kind).toBe('blocked');
    expect(err.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address: refused$/);
    expect(server.seen).toEqual([]);
    const ok = await client({ guard: { allowPrivate: true, resolve: resolvesTo('127.0.0.1') } }).request(
      `http://localhost:${server.port}/x`,
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('hello GET /x');
  });

  it('an unguarded client connects anywhere (URLs the operator chose)', async () => {
    expect((await client().request(`${server.url}/`)).status).toBe(200);
  });
});

describe('timeouts', () => {
  it('headers: connecting and waiting for the head share the budget', async () => {
    routes['/hang'] = () => {
      /* never answers */
    };
    const t0 = performance.now();
    const err = await failure(client().request(`${server.url}/hang`, { headersTimeoutMs: 150 }));
    expect(err).toMatchObject({ kind: 'timeout', phase: 'headers' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    expect(performance.now() - t0).toBeLessThan(1_000);
  });

  it('connect: a connection that cannot be made in time (a lookup that never answers) fails as a connect timeout', async () => {
    const neverResolves = client({
      connectTimeoutMs: 100,
      guard: {
        allowPrivate: true,
        lookup: () => {
          /* silence */
        },
      },
    });
    const t0 = performance.now();
    const err = await failure(neverResolves.request('http://slow-dns.test/'));
    expect(err).toMatchObject({ kind: 'timeout', phase: 'connect' });
    expect(performance.now() - t0).toBeLessThan(1_000);
  });

  it('body: silence between chunks is cut, a slow but steady stream is not', async () => {
    routes['/stall'] = (_req, res) => {
      res.writeHead(200);
      res.write('first');
    };
    routes['/steady'] = (_req, res) => {
      res.writeHead(200);
      let n = 0;
      const tick = setInterval(() => {
        res.write(`${n}`);
        if (++n === 5) {
          clearInterval(tick);
          res.end();
        }
      }, 60);
    };
    const c = client();
    const stalled = await c.request(`${server.url}/stall`, { bodyTimeoutMs: 150 });
    const got: string[] = [];
    const err = await failure(
      (async () => {
        for await (const chunk of stalled.chunks()) got.push(Buffer.from(chunk).toString());
      })(),
    );
    expect(got).toEqual(['first']);
    expect(err).toMatchObject({ kind: 'timeout', phase: 'body' });
    const steady = await c.request(`${server.url}/steady`, { bodyTimeoutMs: 150 });
    expect(await steady.text()).toBe('01234');
  });

  it('total: the whole exchange, head and body, even when every chunk comes in time', async () => {
    routes['/drip'] = (_req, res) => {
      res.writeHead(200);
      const tick = setInterval(() => res.write('.'), 30);
      res.on('close', () => clearInterval(tick));
    };
    const t0 = performance.now();
    const res = await client().request(`${server.url}/drip`, { bodyTimeoutMs: 1_000, totalTimeoutMs: 200 });
    const err = await failure(res.text());
    expect(err).toMatchObject({ kind: 'timeout', phase: 'total' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
    expect(performance.now() - t0).toBeLessThan(1_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.seen[0]?.clientClosed).toBe(true);
  });
});

describe('the body', () => {
  it('is capped: a declared length over the cap fails before reading, a streamed one when it passes the cap, a truncated read stops at it', async () => {
    const big = 'x'.repeat(20_000);
    routes['/declared'] = (_req, res) => res.writeHead(200, { 'content-length': String(big.length) }).end(big);
    routes['/chunked'] = (_req, res) => {
      res.writeHead(200);
      res.write(big);
      res.end(big);
    };
    routes['/bomb'] = (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync('y'.repeat(1_000_000)));
    const c = client();
    for (const path of ['/declared', '/chunked']) {
      const err = await failure((await c.request(`${server.url}${path}`)).read({ maxBytes: 10_000 }));
      expect(err, path).toMatchObject({ kind: 'too_large', message: `${server.url}${path} is larger than 10 KiB` });
    }
    const bomb = await failure((await c.request(`${server.url}/bomb`)).read({ maxBytes: 10_000, decompress: true }));
    expect(bomb.kind).toBe('too_large'); // the cap counts decoded bytes: 2 KiB of gzip is 1 MB of text
    const cut = await (await c.request(`${server.url}/chunked`)).read({ maxBytes: 10_000, truncate: true });
    expect(cut.length).toBe(10_000);
  });

  it('decompresses when asked; an unknown or corrupt encoding is invalid', async () => {
    routes['/gz'] = (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync('zipped'));
    routes['/br'] = (_req, res) => res.writeHead(200, { 'content-encoding': 'br' }).end(zlib.brotliCompressSync('brotli'));
    routes['/odd'] = (_req, res) => res.writeHead(200, { 'content-encoding': 'zstd' }).end('????');
    routes['/corrupt'] = (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip');
    const c = client();
    expect((await (await c.request(`${server.url}/gz`)).read({ maxBytes: 100, decompress: true })).toString()).toBe('zipped');
    expect((await (await c.request(`${server.url}/br`)).read({ maxBytes: 100, decompress: true })).toString()).toBe('brotli');
    expect(await failure((await c.request(`${server.url}/odd`)).read({ maxBytes: 100, decompress: true }))).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('unsupported content encoding (zstd)'),
    });
    expect(await failure((await c.request(`${server.url}/corrupt`)).read({ maxBytes: 100, decompress: true }))).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('could not decode the gzip body'),
    });
  });

  it('streams: each chunk is handed over as it arrives, before the server has finished', async () => {
    let finishedAt = 0;
    routes['/sse'] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => {
        finishedAt = performance.now();
        res.end('data: two\n\n');
      }, 150);
    };
    const res = await client().request(`${server.url}/sse`, { method: 'POST', body: '{}', bodyTimeoutMs: 1_000 });
    const arrivals: { text: string; at: number }[] = [];
    for await (const chunk of res.chunks()) arrivals.push({ text: Buffer.from(chunk).toString(), at: performance.now() });
    expect(arrivals.map((a) => a.text).join('')).toBe('data: one\n\ndata: two\n\n');
    expect(arrivals[0]?.at).toBeLessThan(finishedAt);
  });

  it('a released body is read to its end in the background: the keep-alive connection is reused', async () => {
    let ended = Promise.resolve();
    routes['/events'] = (_req, res) => {
      ended = new Promise((resolve) => res.on('finish', () => resolve()));
      res.writeHead(200);
      res.write('[DONE]');
      setTimeout(() => res.end('trailing bytes'), 20);
    };
    const c = client();
    for (let i = 0; i < 4; i++) {
      await ended; // the last bytes of the previous answer have left the server…
      await new Promise((r) => setTimeout(r, 100)); // …and reached the client, which read them in the background
      const res = await c.request(`${server.url}/events`, { method: 'POST', body: 'x' });
      for await (const chunk of res.chunks()) {
        if (Buffer.from(chunk).toString().includes('[DONE]')) {
          res.release();
          break;
        }
      }
    }
    expect(new Set(server.seen.map((s) => s.remotePort)).size).toBe(1);
    expect(server.seen.every((s) => !s.clientClosed)).toBe(true);
  });

  it('leaving the stream early, or aborting, cancels the request: the server sees the client go', async () => {
    routes['/long'] = (_req, res) => {
      res.writeHead(200);
      const tick = setInterval(() => res.write('chunk'), 20);
      res.on('close', () => clearInterval(tick));
    };
    const c = client();
    const res = await c.request(`${server.url}/long`);
    for await (const _chunk of res.chunks()) break;
    const abort = new AbortController();
    const aborted = await c.request(`${server.url}/long`, { signal: abort.signal });
    setTimeout(() => abort.abort(), 30);
    expect(await failure(aborted.text())).toMatchObject({ kind: 'aborted' });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.seen.map((s) => s.clientClosed)).toEqual([true, true]);
    const before = new AbortController();
    before.abort();
    expect(await failure(c.request(`${server.url}/long`, { signal: before.signal }))).toMatchObject({ kind: 'aborted' });
    expect(server.seen).toHaveLength(2);
  });
});

describe('redirects', () => {
  beforeEach(() => {
    routes['/r0'] = (_req, res) => res.writeHead(302, { location: '/r1' }).end();
    routes['/r1'] = (_req, res) => res.writeHead(301, { location: 'final#frag' }).end();
    routes['/loop'] = (_req, res) => res.writeHead(302, { location: '/loop' }).end();
    routes['/ftp'] = (_req, res) => res.writeHead(302, { location: 'ftp://example.com/' }).end();
  });

  it('are not followed unless asked: the 3xx is the answer', async () => {
    const res = await client().request(`${server.url}/r0`);
    expect(res).toMatchObject({ status: 302, redirects: 0 });
    expect(res.header('location')).toBe('/r1');
  });

  it("are followed up to the policy's max, each hop checked first, fragments dropped", async () => {
    const hops: string[] = [];
    const res = await client().request(`${server.url}/r0`, {
      redirects: { max: 2, check: (next, from) => hops.push(`${from} -> ${next.href}`) },
    });
    expect(res).toMatchObject({ status: 200, redirects: 2, url: `${server.url}/final` });
    expect(hops).toEqual([`${server.url}/r0 -> ${server.url}/r1`, `${server.url}/r1 -> ${server.url}/final`]);
    expect(await failure(client().request(`${server.url}/loop`, { redirects: { max: 3 } }))).toMatchObject({
      kind: 'redirect',
      message: `more than 3 redirects from ${server.url}/loop`,
    });
    expect(await failure(client().request(`${server.url}/ftp`, { redirects: { max: 3 } }))).toMatchObject({
      kind: 'redirect',
      message: `${server.url}/ftp redirects to a ftp: URL`,
    });
    const refused = client().request(`${server.url}/r0`, {
      redirects: {
        max: 3,
        check: () => {
          throw new Error('not there');
        },
      },
    });
    await expect(refused).rejects.toThrow('not there');
  });
});
