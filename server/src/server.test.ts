import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from '../test/test-server.js';

describe('close()', () => {
  it('does not wait for a client that connected but never sent a request, yet finishes one in flight', async () => {
    const server = await startServer();
    const port = Number(new URL(server.url).port);
    const silent = net.connect(port, '127.0.0.1');
    await new Promise((r) => silent.once('connect', r));
    // A request whose body is still arriving when close() starts: it must complete.
    const inFlight = net.connect(port, '127.0.0.1');
    await new Promise((r) => inFlight.once('connect', r));
    const body = JSON.stringify({
      email: 'late@example.com',
      password: 'correct horse battery',
      name: 'Late',
      organizationName: 'Late Co',
    });
    inFlight.write(
      `POST /v1/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let reply = '';
    inFlight.on('data', (d: Buffer) => {
      reply += d.toString();
    });
    const ended = new Promise((r) => inFlight.once('close', r));
    await new Promise((r) => setTimeout(r, 50));
    const silentClosed = new Promise((r) => silent.once('close', r));
    const closing = server.close();
    inFlight.write(body);
    await Promise.race([closing, new Promise((_, reject) => setTimeout(() => reject(new Error('close() hung')), 3000))]);
    await silentClosed;
    await ended;
    expect(reply).toMatch(/^HTTP\/1\.1 201/);
  });
});
