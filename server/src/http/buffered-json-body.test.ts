import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bufferedJsonBody, jsonBody } from './json-body.js';

/**
 * The fast path of the JSON body parser (json-body.ts: bufferedJsonBody) against Node's real
 * HTTP parser and sockets: it takes a body only when all of it has arrived, and everything else
 * goes body-parser's way with the same result.
 */
type Seen = { fast: string | undefined; body: unknown; error: string | null };
let server: http.Server | null = null;
afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = null;
});

/** A server that waits until the request's bytes are in (as authentication does), then looks. */
async function listen(
  limitBytes = 64,
  wait: (go: () => void) => void = (go) => setTimeout(go, 30),
): Promise<{ port: number; seen: Promise<Seen> }> {
  let report: (s: Seen) => void = () => {};
  const seen = new Promise<Seen>((resolve) => {
    report = resolve;
  });
  const parse = jsonBody({ limitBytes });
  server = http.createServer((req, res) => {
    wait(() => {
      // Probe on a look-alike that shares the stream state but not read(): the probe reads nothing.
      const probe = Object.create(req, { read: { value: () => Buffer.from('(probe)') } }) as http.IncomingMessage;
      const fast = bufferedJsonBody(probe, limitBytes)?.toString();
      const r = req as http.IncomingMessage & { body?: unknown };
      const done = (err?: unknown) => {
        report({ fast, body: r.body, error: err ? String((err as Error).message) : null });
        res.end('ok');
      };
      try {
        parse(r as never, res as never, done);
      } catch (err) {
        done(err);
      }
    });
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return { port: (server?.address() as AddressInfo).port, seen };
}

/** Raw HTTP/1.1 bytes, optionally in two writes with a pause between (a slow client). */
async function rawRequest(port: number, head: string, body: string | Buffer, splitAt?: number, pauseMs = 120): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  const bytes = Buffer.concat([Buffer.from(`${head}\r\n\r\n`), Buffer.from(body)]);
  const cut = splitAt === undefined ? bytes.length : bytes.length - Buffer.byteLength(body) + splitAt;
  socket.write(bytes.subarray(0, cut));
  if (cut < bytes.length) {
    await new Promise((r) => setTimeout(r, pauseMs));
    socket.write(bytes.subarray(cut));
  }
  await new Promise((r) => socket.once('data', r));
  socket.destroy();
}

const post = (headers: string) => `POST /x HTTP/1.1\r\nHost: t\r\n${headers}`;

describe('JSON bodies already buffered are read at once (bufferedJsonBody)', () => {
  it('takes a complete application/json body and parses it like body-parser would', async () => {
    const { port, seen } = await listen();
    const body = '{"message":"héllo"}';
    await rawRequest(port, post(`Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}`), body);
    expect(await seen).toEqual({ fast: '(probe)', body: { message: 'héllo' }, error: null });
  });

  it('takes it after one await, as the middleware after authentication sees it (before Node marks it complete)', async () => {
    const { port, seen } = await listen(64, (go) => {
      void Promise.resolve().then(go);
    });
    const body = '{"message":"in the packet of its headers"}';
    await rawRequest(port, post(`Content-Type: application/json\r\nContent-Length: ${body.length}`), body);
    expect(await seen).toEqual({ fast: '(probe)', body: { message: 'in the packet of its headers' }, error: null });
  });

  it('leaves a body still arriving to body-parser, which reads all of it', async () => {
    const { port, seen } = await listen();
    const body = '{"message":"slow client"}';
    await rawRequest(port, post(`Content-Type: application/json\r\nContent-Length: ${body.length}`), body, 5);
    expect(await seen).toEqual({ fast: undefined, body: { message: 'slow client' }, error: null });
  });

  it.each([
    ['a +json type', 'Content-Type: application/vnd.api+json'],
    ['a gzip body', 'Content-Type: application/json\r\nContent-Encoding: gzip'],
  ])('leaves %s to body-parser', async (_name, headers) => {
    const { port, seen } = await listen();
    await rawRequest(port, post(`${headers}\r\nContent-Length: 2`), '{}');
    expect((await seen).fast).toBeUndefined();
  });

  it('leaves a chunked body to body-parser', async () => {
    const { port, seen } = await listen();
    await rawRequest(port, post('Content-Type: application/json\r\nTransfer-Encoding: chunked'), '2\r\n{}\r\n0\r\n\r\n');
    expect(await seen).toEqual({ fast: undefined, body: {}, error: null });
  });

  it('leaves a body over the limit to body-parser, whose 413 stays as it was', async () => {
    const { port, seen } = await listen(64);
    const body = JSON.stringify({ message: 'x'.repeat(100) });
    await rawRequest(port, post(`Content-Type: application/json\r\nContent-Length: ${body.length}`), body);
    const s = await seen;
    expect(s.fast).toBeUndefined();
    expect(s.error).toMatch(/too large/);
  });

  it('reads an empty body (Content-Length: 0) as {} and refuses invalid UTF-8 with the same 400', async () => {
    const empty = await listen();
    await rawRequest(empty.port, post('Content-Type: application/json\r\nContent-Length: 0'), '');
    expect(await empty.seen).toEqual({ fast: '', body: {}, error: null });
    await new Promise((r) => server?.close(r));
    const bad = await listen();
    await rawRequest(
      bad.port,
      post('Content-Type: application/json\r\nContent-Length: 9'),
      Buffer.from([...Buffer.from('{"a":"'), 0xff, ...Buffer.from('"}')]),
    );
    expect(await bad.seen).toEqual({ fast: '(probe)', body: undefined, error: 'The request body is not valid UTF-8' });
  });
});
